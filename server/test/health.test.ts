/** Probes for process managers and load balancers: alive (/healthz) and ready (/readyz). */
import fs from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  REDIS_TEST_URL,
  describeWithRedis,
  forEachDialect,
  useTestApp,
  useAppWithoutDatabase,
} from './helpers.ts';

const withRedis = await describeWithRedis('readiness with Redis');

/** Expects /readyz to answer 503 naming the checks `down`, with every check's state. */
async function expectUnavailable(
  app: FastifyInstance,
  down: string[],
  checks: Record<string, 'ok' | 'down'>,
) {
  const response = await app.inject({ method: 'GET', url: '/readyz' });

  expect(response.statusCode).toBe(503);
  expect(response.json()).toEqual({ status: 'unavailable', down, checks });
}

forEachDialect((dialect) => {
  describe('a node with its database', () => {
    const t = useTestApp(dialect);

    it('answers /healthz with 200 ok', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/healthz' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    });

    it('answers /readyz with 200 and each dependency checked', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', media: 'ok' },
      });
    });
  });

  describe('a node whose database is gone', () => {
    const t = useAppWithoutDatabase(dialect);

    it('still answers /healthz with 200: the process is alive', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    });

    it('answers /readyz with 503 naming the database', async () => {
      await expectUnavailable(t.app, ['database'], { database: 'down', media: 'ok' });
    });
  });

  withRedis('a node on Redis', () => {
    const t = useTestApp(dialect, { REDIS_URL: REDIS_TEST_URL });

    it('checks Redis too', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });

      expect(response.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', redis: 'ok', media: 'ok' },
      });
    });
  });

  describe('a node whose Redis does not answer', () => {
    // Nothing listens on port 1: every connection attempt is refused.
    const t = useTestApp(dialect, { REDIS_URL: 'redis://127.0.0.1:1' });

    it('answers /readyz with 503 naming Redis, and only Redis', async () => {
      await expectUnavailable(t.app, ['redis'], { database: 'ok', redis: 'down', media: 'ok' });
    });
  });

  describe('a node whose picture folder is gone', () => {
    const t = useTestApp(dialect);
    beforeAll(async () => {
      await t.app.ready();
      await fs.rm(t.config.uploadsDir, { recursive: true, force: true });
    });

    it('answers /readyz with 503 naming the media store', async () => {
      await expectUnavailable(t.app, ['media'], { database: 'ok', media: 'down' });
    });
  });
});
