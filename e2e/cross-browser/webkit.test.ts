import { smokeSuite } from './suite.ts';
import { launchWebkit, webkitMissing } from './webkit.ts';

smokeSuite('webkit', webkitMissing(), launchWebkit);
