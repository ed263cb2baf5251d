/**
 * Test harness: one app per dialect per test file, on a database of its own (a temporary SQLite
 * data directory, or a freshly created PostgreSQL database). Factories live in factories.ts and
 * are re-exported here, so a test imports from one place.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { LogEvent } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Db, createDatabase } from '../src/db/index.ts';
import { type Member, friendAction, signupPair } from './factories.ts';
import { createFreshDatabase } from './postgres.ts';

export * from './factories.ts';

export type TestDialect = 'sqlite' | 'postgres';

/** Expects the answer to be `status` with the body `{ error }` and nothing else. */
export function expectError(response: LightMyRequestResponse, status: number, error: string): void {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ error });
}

const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function requestedDialects(): TestDialect[] {
  const names = (process.env.DIALECTS ?? 'sqlite')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (name !== 'sqlite' && name !== 'postgres')
      throw new Error(`DIALECTS: unknown dialect "${name}"`);
  }
  return names as TestDialect[];
}

async function postgresProblem(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const dialects = requestedDialects();
const postgresUnavailable = dialects.includes('postgres') ? await postgresProblem() : null;
if (postgresUnavailable) {
  const message = `PostgreSQL at ${PG_TEST_URL} is unreachable (${postgresUnavailable})`;
  if (process.env.ORBIT_REQUIRE_ALL === '1')
    throw new Error(`${message}; ORBIT_REQUIRE_ALL=1 requires it.`);
  console.warn(`⚠ ${message}: skipping the postgres variant of these tests.`);
}

/** Redis for the cross-node tests. */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * A REDIS_PREFIX no other suite uses, in this run or a run beside it. Test files share one process
 * (the server project does not isolate them), so a prefix made of the process id would let a
 * suite hear the nodes, heartbeats and keys an earlier file left under the same name.
 */
export function uniqueRedisPrefix(name: string, dialect: TestDialect): string {
  return `orbit-${name}-${dialect}-${randomBytes(6).toString('hex')}`;
}

async function redisProblem(): Promise<string | null> {
  const client = new Redis(REDIS_TEST_URL, {
    lazyConnect: true,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  let cause = '';
  client.on('error', (error: Error) => {
    cause = error.message;
  });
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return cause || (error instanceof Error ? error.message : String(error));
  } finally {
    client.disconnect();
  }
}

function describeUnless(
  problem: string | null,
  message: string,
  what: string,
): typeof describe | typeof describe.skip {
  if (!problem) return describe;
  if (process.env.ORBIT_REQUIRE_ALL === '1')
    throw new Error(`${message} (${problem}); ORBIT_REQUIRE_ALL=1 requires it.`);
  console.warn(`⚠ ${message} (${problem}): skipping ${what}.`);
  return describe.skip;
}

/**
 * `describe` when Redis answers at REDIS_TEST_URL, else `describe.skip` with a warning naming
 * `what` (or a failure with ORBIT_REQUIRE_ALL=1).
 */
export async function describeWithRedis(
  what: string,
): Promise<typeof describe | typeof describe.skip> {
  return describeUnless(await redisProblem(), `Redis at ${REDIS_TEST_URL} is unreachable`, what);
}

/** Suites of `kind` (`describe` or `describe.skip`), each run once per dialect: `suite(title, (dialect) => …)`. */
export function suitesPerDialect(
  kind: typeof describe | typeof describe.skip,
): (title: string, body: (dialect: TestDialect) => void) => void {
  return (title, body) => forEachDialect((dialect) => kind(title, () => body(dialect)));
}

/**
 * Suites that need Redis at REDIS_TEST_URL, each run once per dialect in DIALECTS:
 * `suite(title, (dialect) => …)`. When Redis is unreachable they are skipped as describeWithRedis
 * says, naming `what`.
 */
export async function redisSuites(
  what: string,
): Promise<(title: string, body: (dialect: TestDialect) => void) => void> {
  return suitesPerDialect(await describeWithRedis(what));
}

/** As describeWithRedis, for tests that need PostgreSQL whatever DIALECTS says. */
export async function describeWithPostgres(
  what: string,
): Promise<typeof describe | typeof describe.skip> {
  return describeUnless(
    await postgresProblem(),
    `PostgreSQL at ${PG_TEST_URL} is unreachable`,
    what,
  );
}

/** Two fresh members, `a` having asked `b` to be friends: the request is pending. */
export async function requestedPair(app: FastifyInstance): Promise<[Member, Member]> {
  const [a, b] = await signupPair(app);
  await friendAction(app, a, 'request', b);
  return [a, b];
}

/** Two fresh friends: `a` asked, `b` accepted. */
export async function friendPair(app: FastifyInstance): Promise<[Member, Member]> {
  const [a, b] = await requestedPair(app);
  await friendAction(app, b, 'accept', a);
  return [a, b];
}

/** Runs a suite once per dialect in DIALECTS; an unreachable PostgreSQL is skipped (or fails, see above). */
export function forEachDialect(suite: (dialect: TestDialect) => void): void {
  for (const dialect of dialects) {
    const run = dialect === 'postgres' && postgresUnavailable ? describe.skip : describe;
    run(`on ${dialect}`, () => suite(dialect));
  }
}

/** A fresh, empty database of `dialect` (no migrations run), dropped by `close()`. */
export async function freshDatabase(dialect: TestDialect): Promise<{
  db: Db;
  close(): Promise<void>;
}> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-db-'));
  const database =
    dialect === 'postgres' ? await createFreshDatabase(PG_TEST_URL, 'orbit_m') : undefined;
  const { db } = createDatabase({
    databaseUrl: database?.url,
    sqlitePath: path.join(dataDir, 'orbit.db'),
  });
  return {
    db,
    async close() {
      await db.destroy();
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/** A fresh app on a fresh database; `env` overrides the test settings. */
export async function buildTestApp(options: {
  dialect: TestDialect;
  env?: Record<string, string>;
  /** Where the log goes (with LOG_LEVEL in `env`); unset: nothing is logged. */
  logStream?: { write(line: string): void };
  /** Told of every database statement the app runs (see queryCounter.ts). */
  onQuery?: (event: LogEvent) => void;
  /** Hears of every route as it is added. */
  onRoute?: (route: RouteOptions) => void;
}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-test-'));
  const database =
    options.dialect === 'postgres' ? await createFreshDatabase(PG_TEST_URL, 'orbit_t') : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-static-build'),
    AUTH_RATE_LIMIT: '1000',
    UPLOADS_AT_ONCE: '1000',
    UPLOADS_PER_HOUR: '1000000',
    IMAGE_QUEUE_LENGTH: '1000',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const given = options.onQuery ? createDatabase({ ...config, log: options.onQuery }) : undefined;
  const app = await buildApp(config, {
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(given ? { db: given } : {}),
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
  });
  return {
    app,
    config,
    async close() {
      await app.close();
      await given?.db.destroy();
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** `forEachDialect` with the app built for the suite: `suite(t)` reads `t.app` inside its tests. */
export function forEachApp(
  suite: (t: TestApp, dialect: TestDialect) => void,
  env: Record<string, string> = {},
): void {
  forEachDialect((dialect) => suite(useTestApp(dialect, env), dialect));
}

/** useTestApp, whose database is closed once the app is ready: a node that lost its database. */
export function useAppWithoutDatabase(dialect: TestDialect): TestApp {
  const t = useTestApp(dialect);
  beforeAll(async () => {
    await t.app.ready();
    await t.app.db.destroy();
  });
  return t;
}

/**
 * Builds the app before the suite and closes it after; read `.app` / `.config` inside tests.
 * `hooks` hear its log and its statements (see buildTestApp).
 */
export function useTestApp(
  dialect: TestDialect,
  env: Record<string, string> = {},
  hooks: Pick<Parameters<typeof buildTestApp>[0], 'logStream' | 'onQuery'> = {},
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await buildTestApp({ dialect, env, ...hooks });
  });
  afterAll(async () => {
    await current?.close();
  });
  const get = () => {
    if (!current) throw new Error('useTestApp: the app is built in beforeAll');
    return current;
  };
  return {
    get app() {
      return get().app;
    },
    get config() {
      return get().config;
    },
    close: () => get().close(),
  };
}
