/** The real server as a child process (`node --import tsx server/src/main.ts`) for tests that kill it. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import type { AuthResponse } from '../../src/contracts/user.ts';
import { ORIGIN, signupFields, uniqueUsername } from './factories.ts';
import { REDIS_TEST_URL, type TestApp, type TestDialect, uniqueRedisPrefix } from './helpers.ts';

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

/**
 * Two server processes on the test app's database and data directory and on one Redis (settings
 * `env` added), both answering /healthz before the suite; stopped after it.
 */
export function useServerPair(
  t: TestApp,
  env: Record<string, string>,
): { origin: (index: 0 | 1) => string; restart: () => Promise<void> } {
  let servers: ServerProcess[] = [];
  const start = async () => {
    const settings = {
      DATA_DIR: t.config.dataDir,
      STATIC_DIR: path.join(t.config.dataDir, 'no-static-build'),
      REDIS_URL: REDIS_TEST_URL,
      AUTH_RATE_LIMIT: '1000',
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      ...env,
    };
    const started = await Promise.allSettled([
      startServerProcess(settings),
      startServerProcess(settings),
    ]);
    servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    for (const server of servers) {
      const health = await fetch(`${server.origin}/healthz`);
      if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
    }
  };
  const stop = () => Promise.all(servers.map((server) => server.kill('SIGTERM')));
  beforeAll(start);
  afterAll(stop);
  return {
    origin: (index) => (servers[index] as ServerProcess).origin,
    async restart() {
      await stop();
      await start();
    },
  };
}

/**
 * Settings for nodes that share a session cache through the test Redis, under a prefix of their own
 * (`name`). The cache keeps a session far longer than any test waits: only a revocation can make a
 * node forget one in time.
 */
export function sharedSessionCacheEnv(name: string, dialect: TestDialect): Record<string, string> {
  return {
    REDIS_URL: REDIS_TEST_URL,
    REDIS_PREFIX: uniqueRedisPrefix(name, dialect),
    SESSION_CACHE_TTL_MS: '300000',
  };
}

/** A JSON call to a server process, as a bearer call when `token` is given. */
export async function callServer(
  origin: string,
  pathname: string,
  init: { method?: string; token?: string; body?: object } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${pathname}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json', origin: ORIGIN } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

export interface ServerMember {
  id: string;
  username: string;
  token: string;
  isModerator: boolean;
}

/** Signs a member up on a server process through the real endpoint; throws unless it answers 201. */
export async function signupOnServer(origin: string): Promise<ServerMember> {
  const { payload, headers } = await signupFields({ username: uniqueUsername('s') });
  const response = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers,
    body: new Uint8Array(payload),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 201)
    throw new Error(`signup answered ${response.status}: ${await response.text()}`);
  const { user, token } = (await response.json()) as AuthResponse;
  return { id: user.id, username: user.username, token, isModerator: user.isModerator };
}

export interface CommandOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node <args>` from the repository root on the app's data directory and database, without
 * Redis (`env` added); answers its exit code and output, and never throws on a failure.
 */
export async function runNode(
  args: string[],
  config: { dataDir: string; databaseUrl: string | undefined },
  env: Record<string, string> = {},
): Promise<CommandOutcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATA_DIR: config.dataDir,
        DATABASE_URL: config.databaseUrl ?? '',
        REDIS_URL: '',
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CommandOutcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
