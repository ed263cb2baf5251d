// `npm start`: builds the app and compiles the server when either build is missing or older than
// its sources, then runs the compiled server (app, API and socket.io on one port; migrations run
// as it starts) and, beside it, push-relay (Web Push for friend events) with plain `node`,
// sharing a secret generated here unless one is set.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { APP_BUILD_DIR, compiledEntry, ensureAppBuild, ensureServerBuild } from './build.mjs';
import { pushRelay, runTogether } from './processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// A custom STATIC_DIR is someone else's build; only ./dist is ours to refresh.
if (path.resolve(process.env.STATIC_DIR ?? 'dist') === APP_BUILD_DIR) await ensureAppBuild();
await ensureServerBuild();
/** Plain node on the compiled files; stack traces in the logs point at the TypeScript sources. */
const node = (name) => ['--enable-source-maps', compiledEntry(name)];

const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? 'production',
  PORT: process.env.PORT ?? '5000',
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
};

const { vapidSubjectFallback } = await import(pathToFileURL(compiledEntry('push-contact')).href);
const { serverEnv, relay } = pushRelay(env, {
  command: process.execPath,
  args: node('push-relay'),
  vapidSubjectFallback,
});

runTogether([
  { name: 'server', command: process.execPath, args: node('server'), env: serverEnv },
  ...(relay ? [relay] : []),
]);
