// `node scripts/run.mjs <name> [args…]`: runs the compiled build/<name>.mjs (server, push-relay,
// seed…) in this process, compiling it first when build/ is missing or older than its sources.
// `npm run serve`, `npm run relay`, `npm run seed` and `npm run moderator` go through here.
import { pathToFileURL } from 'node:url';
import { compiledEntry, ensureServerBuild } from './build.mjs';

const [name, ...args] = process.argv.slice(2);
if (!name) {
  console.error(
    'Usage: node scripts/run.mjs <server|push-relay|seed|moderator|media-migrate> [args…]',
  );
  process.exit(2);
}
await ensureServerBuild();
// Stack traces in the logs point at the TypeScript sources.
process.setSourceMapsEnabled(true);
const entry = compiledEntry(name);
process.argv = [process.argv[0] ?? process.execPath, entry, ...args];
await import(pathToFileURL(entry).href);
