/** Helpers shared by the benchmarks: timing statistics, free ports, the app server as a child. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogEvent } from 'kysely';
import autocannon, { type Options, type Result } from 'autocannon';
import sharp from 'sharp';
import { type Socket, io } from 'socket.io-client';

import { freePort } from '../e2e/ports.ts';
import { spawnServer } from '../e2e/serverProcess.ts';
import { createFreshDatabase } from '../server/test/postgres.ts';

export { freePort };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

/** Nearest-rank percentile of already sorted numbers. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** p50, p99 and the largest of unsorted values. */
export function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** An autocannon result as a table row: name, requests per second, latency p50 and p99. */
export function throughputRow(
  name: string,
  result: { requests: { average: number }; latency: { p50: number; p99: number } },
): string[] {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  return [name, result.requests.average.toFixed(0), ms(result.latency.p50), ms(result.latency.p99)];
}

export const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export function machine() {
  return { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, node: process.version };
}

/** Connections each load generator keeps open, in every throughput benchmark. */
export const CONNECTIONS = 10;
/** How long one load measurement runs, in seconds. */
export const LOAD_SECONDS = 10;
/** autocannon in a worker thread of its own; `BENCH_WORKERS=0` keeps it on the main thread. */
export const LOAD_WORKERS = process.env.BENCH_WORKERS === '0' ? {} : { workers: 1 };

/**
 * One autocannon run with CONNECTIONS connections (in LOAD_WORKERS); throws when any answer was
 * not 2xx or any request failed.
 */
export async function loadWithoutErrors(options: Options): Promise<Result> {
  const result = await autocannon({ connections: CONNECTIONS, ...LOAD_WORKERS, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${options.url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return result;
}

/** Limits meant for attackers, out of the way: every member of a benchmark comes from one address. */
export const BENCH_LIMITS = {
  AUTH_RATE_LIMIT: '1000000',
  UPLOADS_AT_ONCE: '1000',
  UPLOADS_PER_HOUR: '1000000',
};

/**
 * The statements a database runs while `during` runs its work: give `onQuery` to the database as
 * its log (`createDatabase`'s `log`).
 */
export function statementRecorder() {
  let current: LogEvent[] | undefined;
  return {
    onQuery: (event: LogEvent) => {
      current?.push(event);
    },
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: LogEvent[] }> {
      const statements: LogEvent[] = [];
      current = statements;
      try {
        return { result: await work(), statements };
      } finally {
        current = undefined;
      }
    },
  };
}

export function writeResult(name: string, data: unknown): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), machine: machine(), ...(data as object) }, null, 2)}\n`,
  );
  return file;
}

/**
 * Writes this run's entry under `key` into a result file that holds one entry per setup: the
 * other `setups` keep what an earlier run wrote, in this order.
 */
export function writeResultEntry(
  name: string,
  setups: readonly string[],
  key: string,
  entry: object,
): string {
  const file = path.join(RESULTS_DIR, `${name}.json`);
  const previous = (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}) as Record<
    string,
    unknown
  >;
  const kept = Object.fromEntries(setups.map((setup) => [setup, previous[setup]]));
  return writeResult(name, { ...kept, [key]: entry });
}

/** Writes a benchmark's report as bench/results/<name>.md; answers the file's path. */
export function writeReport(name: string, markdown: string): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.md`);
  fs.writeFileSync(file, markdown);
  return file;
}

export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Builds the client into dist/ when there is no build yet. */
export function ensureBuild(): void {
  if (fs.existsSync(path.join(ROOT, 'dist', 'index.html'))) return;
  console.log('No build found: running vite build…');
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('vite build failed');
}

export interface StartedApp {
  child: ChildProcess;
  origin: string;
  /** Milliseconds from spawn to the first 200 on `/`. */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * Runs `node scripts/start.mjs` (or `node <args>`) on a free port with a fresh data directory and
 * waits for the first 200 on `/`.
 */
export async function startApp(
  timeoutMs = 60_000,
  args: readonly string[] = [path.join(ROOT, 'scripts/start.mjs')],
): Promise<StartedApp> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-'));
  const origin = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      STATIC_DIR: path.join(ROOT, 'dist'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`scripts/start.mjs exited with code ${child.exitCode}`);
    if (performance.now() - started > timeoutMs) {
      await stop();
      throw new Error(`no 200 on / within ${timeoutMs} ms`);
    }
    try {
      const response = await fetch(`${origin}/`);
      await response.arrayBuffer();
      if (response.status === 200)
        return { child, origin, readyMs: performance.now() - started, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A server process's settings for a benchmark: 127.0.0.1 on `port`, `dataDir` and no built client,
 * no Redis, BENCH_LIMITS.
 */
export function serverEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-build'),
    APP_ORIGIN: `http://127.0.0.1:${port}`,
    ...BENCH_LIMITS,
    REDIS_URL: '',
  };
}

export interface RunningServer {
  child: ChildProcess;
  origin: string;
  dataDir: string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * The server alone (`server/src/main.ts`) on a free port with a fresh data directory, in
 * production mode with auth rate limits out of the way; resolves once `/healthz` answers 200.
 * `env` adds to or overrides that (e.g. `STATIC_DIR`, `REDIS_URL`, `RELAY_SECRET`).
 */
export async function startServer(
  options: { env?: NodeJS.ProcessEnv; dataPrefix?: string; timeoutMs?: number } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), options.dataPrefix ?? 'orbit-bench-'));
  const server = await spawnServer({
    origin,
    env: { ...serverEnv(port, dataDir), ...options.env },
    stdio: ['ignore', 'inherit', 'inherit'],
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  }).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { child: server.child, origin, dataDir, stop };
}

/**
 * `count` servers (startServer, one after the other: the first one creates the tables) sharing a
 * fresh PostgreSQL database made next to `databaseUrl` and one Redis key prefix on `redisUrl`, each
 * when given; `stop` stops them all and drops that database.
 */
export async function startServers(options: {
  count?: number;
  databaseUrl?: string | undefined;
  redisUrl?: string | undefined;
  env?: NodeJS.ProcessEnv;
  dataPrefix: string;
}): Promise<{ nodes: RunningServer[]; databaseUrl: string | undefined; stop(): Promise<void> }> {
  const { databaseUrl, redisUrl, dataPrefix } = options;
  const database = databaseUrl ? await createFreshDatabase(databaseUrl, 'orbit_bench') : undefined;
  const env = {
    ...options.env,
    ...(redisUrl
      ? { REDIS_URL: redisUrl, REDIS_PREFIX: `orbit-bench-${randomBytes(4).toString('hex')}` }
      : {}),
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  const nodes: RunningServer[] = [];
  for (let i = 0; i < (options.count ?? 1); i++) nodes.push(await startServer({ env, dataPrefix }));
  const stop = async () => {
    for (const node of nodes) await node.stop();
    await database?.drop();
  };
  return { nodes, databaseUrl: database?.url, stop };
}

/**
 * A socket.io client as the app opens one (websocket, the session's bearer token, no
 * reconnection); `opened` hears of it at once, the promise once it is connected.
 */
export async function openSocket(
  origin: string,
  token: string,
  opened: (socket: Socket) => void = () => {},
): Promise<Socket> {
  const socket = io(origin, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { token },
  });
  opened(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Puts a connected socket's member in presence, as the app does; throws when refused. */
export async function joinPresence(
  socket: Socket,
  presence: { userId: string; username?: string },
): Promise<void> {
  const ack = (await socket.timeout(10_000).emitWithAck('presence:join', presence)) as {
    ok: boolean;
  };
  if (!ack.ok) throw new Error('presence:join refused');
}

export const BENCH_PASSWORD = 'Bench#Orbit1';

/** Signs a member up through the real endpoint; answers the bearer token and user id. */
export async function signupBenchMember(
  base: string,
  username: string,
  extra: Record<string, string> = {},
): Promise<{ token: string; userId: string }> {
  const avatar = await sharp({
    create: { width: 64, height: 64, channels: 3, background: '#4f46e5' },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  for (const [name, value] of Object.entries({
    username,
    email: `${username}@orbit.example`,
    password: BENCH_PASSWORD,
    birthday: '1990-01-01',
    ...extra,
  })) {
    form.append(name, value);
  }
  form.append(
    'profilePic',
    new Blob([new Uint8Array(avatar)], { type: 'image/png' }),
    'avatar.png',
  );
  const response = await fetch(`${base}/api/auth/signup`, { method: 'POST', body: form });
  const body = (await response.json()) as { token?: string; user?: { id: string } };
  if (response.status !== 201 || !body.token || !body.user)
    throw new Error(`signup answered ${response.status}: ${JSON.stringify(body)}`);
  return { token: body.token, userId: body.user.id };
}
