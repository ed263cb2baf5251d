// `npm run dev`: Vite on http://localhost:5173 with hot reload, the API server on port 5000 and
// push-relay beside it, both restarting on every change. The page calls the API on port 5000
// itself (the API-host rule of docs/product.md "Session and API calls"), so Vite proxies nothing. Ctrl+C stops all three.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { pushRelay, runTogether } from './processes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const colour = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
// The children write into pipes (for the prefixes), so they cannot see the terminal themselves.
const logFormat = process.stdout.isTTY && !process.env.LOG_FORMAT ? { LOG_FORMAT: 'pretty' } : {};
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const apiEnv = {
  ...process.env,
  ...colour,
  ...logFormat,
  NODE_ENV: 'development',
  PORT: process.env.PORT ?? '5000',
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
};
const watch = (entry) => ['watch', '--clear-screen=false', '--exclude', 'data/**', entry];
// Development runs the TypeScript sources through tsx; the relay's contact rule too.
/** @type {typeof import('../push-relay/src/contact.ts')} */
const { vapidSubjectFallback } = await tsImport('../push-relay/src/contact.ts', import.meta.url);
const { serverEnv, relay } = pushRelay(apiEnv, {
  command: bin('tsx'),
  args: watch('push-relay/src/main.ts'),
  vapidSubjectFallback,
});

runTogether(
  [
    {
      name: 'web',
      command: bin('vite'),
      // The API allows this origin (APP_ORIGIN); a different port would fail CORS, so insist on it.
      args: ['--port', '5173', '--strictPort'],
      env: { ...process.env, ...colour },
    },
    { name: 'api', command: bin('tsx'), args: watch('server/src/main.ts'), env: serverEnv },
    ...(relay ? [relay] : []),
  ],
  { prefix: true },
);
