/**
 * The fuzz cases against the real rate limits (docs/product.md "Errors"): the limited routes soon
 * answer 429, and a 429 is `{error}` like every other refusal. The main fuzz suite raises the
 * limits so its cases reach the routes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildFuzzApp, type FuzzApp } from './fuzz/app.ts';
import type { FuzzContext } from './fuzz/routes.ts';
import { fuzzSettings, newStats, runBatch, setUpContext } from './fuzz/run.ts';
import { forEachDialect } from './helpers.ts';

const { seed: SEED } = fuzzSettings(1);

forEachDialect((dialect) => {
  let fuzz: FuzzApp;
  let ctx: FuzzContext;

  beforeAll(async () => {
    fuzz = await buildFuzzApp({
      dialect,
      ...(process.env.PG_TEST_URL ? { postgresUrl: process.env.PG_TEST_URL } : {}),
      env: { AUTH_RATE_LIMIT: '10' },
    });
    // Three signups and three logins of the set-up come first, within the limit.
    ctx = await setUpContext(fuzz);
  }, 60_000);
  afterAll(async () => {
    await fuzz?.close();
  });

  it('answers the limited routes with 429 {error} once the limit is spent', async () => {
    const stats = newStats();
    await runBatch(fuzz, ctx, {
      runs: 300,
      seed: SEED,
      stats,
      only: (route) => route.limited,
    });

    expect(fuzz.routes.filter((route) => route.limited).length).toBeGreaterThan(0);
    expect(stats.statuses.get(429) ?? 0).toBeGreaterThan(50);
  }, 120_000);
});
