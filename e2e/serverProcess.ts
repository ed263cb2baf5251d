import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  /** Sends SIGTERM (unless it has exited) and waits for the exit. */
  stop: () => Promise<void>;
}

/**
 * The real server (`server/src/main.ts`, run through tsx) in production mode with `env` added,
 * resolved once `{origin}/healthz` answers 200; rejects (and stops it) if it exits or stays silent
 * for `timeoutMs`.
 */
export async function spawnServer(options: {
  origin: string;
  env: NodeJS.ProcessEnv;
  stdio?: StdioOptions;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...options.env },
      stdio: options.stdio ?? ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`no answer on ${options.origin}/healthz`);
    }
    try {
      if ((await fetch(`${options.origin}/healthz`)).ok) return { child, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
