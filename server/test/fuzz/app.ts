/**
 * The app the fuzz suite drives: a real one on a fresh database, with every optional route on
 * (metrics, push, a built page), limits raised so cases are not all 429, and the list of its routes
 * as Fastify registered them.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { createFreshDatabase } from '../postgres.ts';

export type FuzzDialect = 'sqlite' | 'postgres';

/** A route as the fuzz suite knows it: its method, path and the contracts it declared. */
export interface FuzzRoute {
  method: string;
  url: string;
  schema: {
    body?: unknown;
    querystring?: unknown;
    params?: unknown;
    consumes?: readonly string[];
  };
  /** Whether the route counts requests against a rate limit. */
  limited: boolean;
}

const METRICS_TOKEN = 'fuzz-metrics-token-0123456789';

/**
 * Settings of the fuzz app. Limits that would turn most cases into 429 are raised here; a limit
 * added to the config later belongs here too (the real limits are fuzzed in fuzz.limits.test.ts).
 */
const FUZZ_ENV: Record<string, string> = {
  AUTH_RATE_LIMIT: '1000000',
  UPLOADS_AT_ONCE: '1000',
  UPLOADS_PER_HOUR: '1000000',
  REPORTS_PER_HOUR: '1000000',
  IMAGE_QUEUE_LENGTH: '1000',
  METRICS_TOKEN,
  RELAY_SECRET: 'fuzz-relay-secret-0123456789',
};

export interface FuzzApp {
  app: FastifyInstance;
  config: Config;
  routes: FuzzRoute[];
  close(): Promise<void>;
}

/** A page build with an index, a hashed asset and a source map, so the static routes exist too. */
async function writeStaticBuild(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'assets'), { recursive: true });
  await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Orbit</title>');
  await fs.writeFile(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1);');
  await fs.writeFile(path.join(dir, 'assets', 'app-abc123.js.map'), '{}');
}

export async function buildFuzzApp(options: {
  dialect: FuzzDialect;
  /** PostgreSQL server to create a fresh database on. */
  postgresUrl?: string;
  env?: Record<string, string>;
}): Promise<FuzzApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-fuzz-'));
  const staticDir = path.join(dataDir, 'static');
  await writeStaticBuild(staticDir);
  const database =
    options.dialect === 'postgres'
      ? await createFreshDatabase(
          options.postgresUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres',
          'orbit_fz',
        )
      : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    STATIC_DIR: staticDir,
    ...FUZZ_ENV,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const routes: FuzzRoute[] = [];
  const app = await buildApp(config, {
    onRoute: (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const schema = (route.schema ?? {}) as FuzzRoute['schema'];
      const limited = Boolean((route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
      for (const method of methods) routes.push({ method, url: route.url, schema, limited });
    },
  });
  await app.ready();
  return {
    app,
    config,
    routes,
    async close() {
      await app.close();
      await database?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
