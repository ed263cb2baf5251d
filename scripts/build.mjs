// `npm run build` (`node scripts/build.mjs`): the app into dist/ (Vite), and the server,
// push-relay and the operator commands compiled to plain JavaScript in build/, so production runs
// them with `node` alone; then docs/openapi.json from the compiled server's route schemas. Packages stay in node_modules, not bundled: the native ones
// (better-sqlite3, sharp, argon2) cannot be, and the rest load as fast from there.
// `npm start`, scripts/run.mjs and `node scripts/build.mjs --if-stale` rebuild only what is
// missing or older than its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SERVER_BUILD_DIR = path.join(root, 'build');
export const APP_BUILD_DIR = path.join(root, 'dist');

/** What the compiled files are made from; a change to any of these makes build/ stale. */
const SERVER_BUILD_INPUTS = [
  'server/src',
  'push-relay/src',
  'src/contracts',
  'package-lock.json',
  'scripts/build.mjs',
];
/** What the app build is made from. */
const APP_BUILD_INPUTS = [
  'src',
  'sw',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
];

/** build/<name>.mjs ← its entry point. */
const ENTRIES = {
  server: 'server/src/main.ts',
  'push-relay': 'push-relay/src/main.ts',
  seed: 'server/src/seed.ts',
  moderator: 'server/src/moderator.ts',
  'media-migrate': 'server/src/media/migrate.ts',
  // The relay's rule for its push contact, which `npm start` asks before starting it.
  'push-contact': 'push-relay/src/contact.ts',
  // The database migrations, one file each: the server reads them from build/migrations/.
  ...Object.fromEntries(
    fs
      .readdirSync(path.join(root, 'server/src/db/migrations'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => [
        `migrations/${path.basename(file, '.ts')}`,
        `server/src/db/migrations/${file}`,
      ]),
  ),
  // Writes docs/openapi.json from the routes' schemas (README "API documentation").
  openapi: 'server/src/openapi.ts',
};

export const compiledEntry = (name) => path.join(SERVER_BUILD_DIR, `${name}.mjs`);

/** Newest modification time under a file or folder; tests are not part of a build. */
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

/** Why `output` needs building again, or null when it is newer than every input (paths from the root). */
export function staleness(output, inputs) {
  if (!fs.existsSync(output)) return 'no build found';
  const built = fs.statSync(output).mtimeMs;
  const changed = inputs.find((input) => newestMtime(path.join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/** Compiles every entry into `outdir` (build/ by default; a test compiles into a folder of its own). */
export async function buildServer(outdir = SERVER_BUILD_DIR) {
  // Loaded here, so the commands that only check the build do not need the build tool.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, entry]) => [name, path.join(root, entry)]),
    ),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

/** `vite build`; `quiet` keeps its asset table out of `npm start`'s output (warnings still show). */
function buildApp(quiet = false) {
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      ...(quiet ? ['--logLevel', 'warn'] : []),
    ],
    // Vite keeps a NODE_ENV it finds (a shell's `development`, a test runner's `test`), which
    // builds React's development bundle and leaves the service worker unregistered.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) throw new Error('The app build (vite build) failed.');
}

/** docs/openapi.json from the compiled server's route schemas. */
function writeOpenApi() {
  const result = spawnSync(process.execPath, [compiledEntry('openapi')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('Writing docs/openapi.json failed.');
}

/** Runs `build` when `output` is stale; exits the process if it fails. */
async function ensure(what, output, inputs, build) {
  const reason = staleness(output, inputs);
  if (!reason) return;
  console.log(`${what} (${reason})…`);
  try {
    await build();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

/** Builds the app into dist/ when it is missing or older than its sources. */
export const ensureAppBuild = () =>
  ensure('Building the app', path.join(APP_BUILD_DIR, 'index.html'), APP_BUILD_INPUTS, () =>
    buildApp(true),
  );

/** Compiles build/ when it is missing or older than its sources. */
export const ensureServerBuild = () =>
  ensure('Compiling the server', compiledEntry('server'), SERVER_BUILD_INPUTS, buildServer);

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--if-stale') {
  await ensureAppBuild();
  await ensureServerBuild();
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildApp();
  const started = Date.now();
  await buildServer();
  console.log(`Compiled the server and push-relay into build/ in ${Date.now() - started} ms.`);
  writeOpenApi();
}
