// `npm start`: builds the app when the build is missing or older than its sources, then runs
// the server (app, API and socket.io on one port; migrations run as it starts) and, beside it,
// push-relay (Web Push for friend events), sharing a secret generated here unless one is set.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pushRelay, runTogether } from './processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

/** What the client build is made from; a change to any of these makes the build stale. */
const BUILD_INPUTS = ['src', 'sw', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];
const BUILD_OUTPUT = path.join(root, 'dist', 'index.html');

/** Newest modification time under a file or folder; tests are not part of the build. */
function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.test\.[jt]sx?$/.test(target) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, name)));
  return newest;
}

function buildIsStale() {
  if (!fs.existsSync(BUILD_OUTPUT)) return 'no build found';
  const built = fs.statSync(BUILD_OUTPUT).mtimeMs;
  const changed = BUILD_INPUTS.find((input) => newestMtime(path.join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

// A custom STATIC_DIR is someone else's build; only ./dist is ours to refresh.
const staticDir = path.resolve(process.env.STATIC_DIR ?? 'dist');
if (staticDir === path.join(root, 'dist')) {
  const reason = buildIsStale();
  if (reason) {
    console.log(`Building the app (${reason})…`);
    const build = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'],
      {
        stdio: 'inherit',
      },
    );
    if (build.status !== 0) {
      console.error('The build failed; not starting.');
      process.exit(build.status ?? 1);
    }
  }
}

const env = {
  ...process.env,
  NODE_ENV: process.env.NODE_ENV ?? 'production',
  PORT: process.env.PORT ?? '5000',
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
};

const { serverEnv, relay } = pushRelay(env, {
  command: process.execPath,
  args: ['--import', 'tsx', 'push-relay/src/main.ts'],
});

runTogether([
  {
    name: 'server',
    command: process.execPath,
    args: ['--import', 'tsx', 'server/src/main.ts'],
    env: serverEnv,
  },
  ...(relay ? [relay] : []),
]);
