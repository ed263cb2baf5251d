import { firefoxMissing, launchFirefox } from './firefox.ts';
import { smokeSuite } from './suite.ts';

smokeSuite('firefox', firefoxMissing(), launchFirefox);
