/** The real server as a child process (`node --import tsx server/src/main.ts`) for tests that kill it. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  origin: string;
  /** Everything the process has written to stdout so far. */
  stdout(): string;
  /** Everything it has written to stdout and stderr so far, as it came. */
  output(): string;
  /** Ends the process with `signal` and waits until it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts the server on a free port with `env` added; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  let output = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not listen within 30 s:\n${output}`)),
      30_000,
    );
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  }).catch(async (error: unknown) => {
    await kill('SIGKILL');
    throw error;
  });
  return { child, origin, kill, stdout: () => stdout, output: () => output };
}
