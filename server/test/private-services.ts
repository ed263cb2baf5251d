/**
 * Redis and PostgreSQL servers of a test's own, on free ports, that the test may kill and start
 * again: the machine's shared ones are never stopped. PostgreSQL needs root (its binaries run as
 * the `postgres` user) and Debian's packages; `privatePostgresProblem()` says why it cannot run.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  type Member,
  type TestApp,
  type TestDialect,
  ORIGIN,
  SECURITY_ANSWER,
  asBearer,
  buildTestApp,
  postLogin,
  postQuestion,
  postReset,
  postSignup,
  suitesPerDialect,
} from './helpers.ts';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on right now (the kernel's pick of a free one). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `port` accepts connections; fails after `ms`. */
async function accepting(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing accepts on port ${port} after ${ms} ms`);
    await sleep(20);
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Kills the server (SIGKILL: no goodbye to its clients) and waits until it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it saves nothing) and waits until it accepts. */
  start(): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) it: connections stay open, nothing is answered. */
  freeze(frozen: boolean): void;
}

/** Why a private Redis cannot be started here (no `redis-server` on the PATH), or null. */
export function privateRedisProblem(): string | null {
  const found = (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir && fs.existsSync(path.join(dir, 'redis-server')));
  return found ? null : 'no redis-server on the PATH';
}

/**
 * `describe`, or `describe.skip` with a warning naming the reason when `problem` is set; a
 * failure instead with ORBIT_REQUIRE_ALL=1.
 */
export function describeUnlessMissing(
  problem: string | null,
  what: string,
): typeof describe | typeof describe.skip {
  if (!problem) return describe;
  if (process.env.ORBIT_REQUIRE_ALL === '1')
    throw new Error(`${what} cannot run (${problem}); ORBIT_REQUIRE_ALL=1 requires it.`);
  console.warn(`⚠ ${what} cannot run (${problem}): skipping it.`);
  return describe.skip;
}

/**
 * Suites that start a Redis of their own, each run once per dialect: `suite(title, (dialect) => …)`.
 * Skipped as describeUnlessMissing says, naming `what`, where no `redis-server` can be started.
 */
export function privateRedisSuites(
  what: string,
): (title: string, body: (dialect: TestDialect) => void) => void {
  return suitesPerDialect(describeUnlessMissing(privateRedisProblem(), what));
}

/**
 * How fast a call must answer while Redis is hung or down. The promised bound is 1 s; the slack is
 * for a busy test machine, not for a retry.
 */
export const FAST_MS = 1_500;

/** Runs `call` and says how long it took. */
export async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

/** Calls by name, each made afresh when run. */
export type Calls = Record<string, () => Promise<LightMyRequestResponse>>;

/**
 * The sign-in calls whose attempts Redis counts, each about `member`: signup, login, the security
 * question, the reset, and the password change (counted per account, features/auth/attempts.ts).
 */
export function countedAuthCalls(app: FastifyInstance, member: Member): Calls {
  return {
    signup: () => postSignup(app),
    login: () => postLogin(app, { identifier: member.username, password: member.password }),
    'security question': () =>
      postQuestion(app, { origin: ORIGIN }, { identifier: member.username }),
    'password reset': () =>
      postReset(
        app,
        { origin: ORIGIN },
        { identifier: member.username, answer: SECURITY_ANSWER, newPassword: 'Another#Pass2' },
      ),
    'password change': () =>
      app.inject({
        method: 'PATCH',
        url: '/api/auth/password',
        headers: asBearer(member),
        payload: { currentPassword: member.password, newPassword: 'Another#Pass3' },
      }),
  };
}

/** Every call answers 503 with `body` within FAST_MS; a failure names the call. */
export async function expectEachRefusedFast(calls: Calls, body: unknown): Promise<void> {
  for (const [name, call] of Object.entries(calls)) {
    const { result, ms } = await timed(call);
    expect({ name, status: result.statusCode, body: result.json<unknown>() }).toEqual({
      name,
      status: 503,
      body,
    });
    expect(ms, name).toBeLessThan(FAST_MS);
  }
}

/** `redis-server` on a free port, keeping nothing on disk; killed with `stop()` at the end. */
export async function startPrivateRedis(): Promise<PrivateRedis & { stop(): Promise<void> }> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    await accepting(port, 10_000);
  };
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const freeze = (frozen: boolean) => {
    child?.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, freeze, stop: kill };
}

/**
 * A private Redis and an app on it (REDIS_URL, `env` added) for the suite: started before it,
 * stopped after it (Redis thawed first). Read the fields inside tests.
 */
export function usePrivateRedisApp(
  dialect: TestDialect,
  env: Record<string, string> = {},
): TestApp & { readonly redis: PrivateRedis } {
  let redis: (PrivateRedis & { stop(): Promise<void> }) | undefined;
  let current: TestApp | undefined;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    current = await buildTestApp({ dialect, env: { REDIS_URL: redis.url, ...env } });
  });
  afterAll(async () => {
    redis?.freeze(false);
    await current?.close();
    await redis?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('usePrivateRedisApp: started in beforeAll');
    return value;
  };
  return {
    get app() {
      return started(current).app;
    },
    get config() {
      return started(current).config;
    },
    close: () => started(current).close(),
    get redis() {
      return started(redis);
    },
  };
}

const POSTGRES_BIN = (() => {
  try {
    const versions = fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    for (const version of versions) {
      const bin = `/usr/lib/postgresql/${version}/bin`;
      if (fs.existsSync(`${bin}/initdb`) && fs.existsSync(`${bin}/pg_ctl`)) return bin;
    }
  } catch {
    // no PostgreSQL packages
  }
  return undefined;
})();

/** Why a private PostgreSQL cannot be started here, or null when it can. */
export function privatePostgresProblem(): string | null {
  if (!POSTGRES_BIN) return 'no initdb/pg_ctl under /usr/lib/postgresql/*/bin';
  if (process.getuid?.() !== 0) return 'not run as root (initdb and pg_ctl run as user postgres)';
  return null;
}

export interface PrivatePostgres {
  /** The `postgres` database of the cluster, for the superuser `postgres` (trust). */
  adminUrl: string;
  /** Stops at once (`-m immediate`: every backend killed, as in a crash). */
  crash(): Promise<void>;
  /** Starts the stopped cluster again on the same port and waits until it accepts. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
}

/** A cluster of its own under the temporary folder (initdb, trust), listening on a free port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const problem = privatePostgresProblem();
  if (problem || !POSTGRES_BIN) throw new Error(`cannot start PostgreSQL: ${problem}`);
  const bin = POSTGRES_BIN;
  const port = await freePort();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'orbit-pg-'));
  const data = path.join(dir, 'data');
  await fsp.chmod(dir, 0o755);
  await run('chown', ['postgres:postgres', dir]);
  const asPostgres = (command: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', `${bin}/${command}`, ...args], { cwd: '/tmp' });
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async () => {
    await asPostgres('pg_ctl', [
      '-D',
      data,
      '-o',
      options,
      '-l',
      path.join(dir, 'log'),
      '-w',
      'start',
    ]);
  };
  const stopped = async (mode: 'immediate' | 'fast') => {
    await asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']).catch(() => undefined);
  };
  await start();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.end();
  return {
    adminUrl,
    crash: () => stopped('immediate'),
    start,
    async remove() {
      await stopped('immediate');
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

export interface CuttableProxy {
  /** `redis://` to the proxy, for a Redis behind it. */
  url: string;
  /**
   * Stops (true) or starts again (false) carrying bytes either way on every connection, present
   * and future, while keeping them all open: a network cut that TCP has not noticed yet.
   */
  cut(cut: boolean): void;
  /** Closes every connection it carries now (new ones are carried as before). */
  drop(): void;
  close(): Promise<void>;
}

/** A TCP proxy on a free port to `port` on this machine, that the test can cut off. */
export async function startCuttableProxy(port: number): Promise<CuttableProxy> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  let isCut = false;
  const carry = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (!to.write(chunk)) {
        from.pause();
        to.once('drain', () => {
          if (!isCut) from.resume();
        });
      }
    });
    from.on('close', () => to.destroy());
    from.on('error', () => to.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    carry(client, upstream);
    carry(upstream, client);
    if (isCut) for (const socket of pair) socket.pause();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${own}`,
    cut(cut) {
      isCut = cut;
      for (const pair of pairs) {
        for (const socket of pair) {
          if (cut) socket.pause();
          else socket.resume();
        }
      }
    },
    drop() {
      for (const pair of pairs) for (const socket of pair) socket.destroy();
    },
    async close() {
      for (const pair of pairs) for (const socket of pair) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
