/**
 * The server as operators run it (`npm run serve`: build/server.mjs, compiled first when stale)
 * on a free port with a fresh SQLite data directory, in production mode with auth rate limits out
 * of the way; resolves once `/healthz` answers 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, freePort, serverEnv } from './common.ts';

export interface CompiledServer {
  child: ChildProcess;
  pid: number;
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * `logLevel` other than the default `warn` sends the server's log lines to /dev/null, as many as
 * it writes: their cost is counted, the terminal stays readable.
 */
export async function startCompiledServer(
  prefix: string,
  logLevel = 'warn',
): Promise<CompiledServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/run.mjs'), 'server'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: logLevel,
      ...serverEnv(port, dataDir),
    },
    stdio: ['ignore', logLevel === 'warn' ? 'inherit' : 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // Compiling a stale build/ comes first: allow for it.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`no answer on ${origin}/healthz`);
    }
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!child.pid) throw new Error('the server has no pid');
  return { child, pid: child.pid, origin, dataDir, stop };
}
