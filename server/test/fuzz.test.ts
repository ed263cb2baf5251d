/**
 * The fuzz suite: requests generated from every route's contracts, sent by the member whose things
 * they are, by another member and by no one, on each database. Every answer is below 500, every
 * refusal is `{error}` (docs/product.md "Errors"), only owners change their pictures
 * (docs/decisions.md "Only the owner edits a gallery"), and between batches a member the fuzz never
 * acts as is served as usual. FUZZ_RUNS sets the number of cases, FUZZ_SEED replays a run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFuzzApp, type FuzzApp, type FuzzRoute } from './fuzz/app.ts';
import { missingGenerators } from './fuzz/routes.ts';
import { type FuzzStats, fuzzBatches, fuzzSettings, newStats, setUpContext } from './fuzz/run.ts';
import type { FuzzContext } from './fuzz/routes.ts';
import { forEachDialect } from './helpers.ts';

const { runs: RUNS, seed: SEED } = fuzzSettings(3_000);
const BATCH = 150;

describe('fuzz generators', () => {
  it('has a generator for every route the app registers', async () => {
    const fuzz = await buildFuzzApp({ dialect: 'sqlite' });
    try {
      expect(fuzz.routes.length).toBeGreaterThan(40);
      expect(missingGenerators(fuzz.routes)).toEqual([]);
    } finally {
      await fuzz.close();
    }
  });

  it('names a multipart or wildcard route that has no hand-written generator', () => {
    const routes: FuzzRoute[] = [
      {
        method: 'POST',
        url: '/api/new-form',
        schema: { consumes: ['multipart/form-data'] },
        limited: false,
      },
      { method: 'GET', url: '/files/*', schema: {}, limited: false },
      { method: 'POST', url: '/api/new-json', schema: {}, limited: false },
    ];

    expect(missingGenerators(routes)).toEqual([
      'POST /api/new-form: it takes multipart/form-data',
      'GET /files/*: its path has a wildcard',
    ]);
  });
});

forEachDialect((dialect) => {
  let fuzz: FuzzApp;
  let ctx: FuzzContext;
  const stats: FuzzStats = newStats();

  beforeAll(async () => {
    fuzz = await buildFuzzApp({
      dialect,
      ...(process.env.PG_TEST_URL ? { postgresUrl: process.env.PG_TEST_URL } : {}),
    });
    ctx = await setUpContext(fuzz);
  }, 60_000);
  afterAll(async () => {
    const statuses = [...stats.statuses].sort(([a], [b]) => a - b);
    console.info(
      `fuzz on ${dialect}: ${stats.cases} cases (seed ${SEED}, FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} to replay), statuses ${statuses.map(([s, n]) => `${s}×${n}`).join(' ')}`,
    );
    await fuzz?.close();
  });

  it(`answers ${RUNS} generated requests without a 5xx, each refusal as {error}`, async () => {
    const options = { runs: RUNS, batchSize: BATCH, seed: SEED, stats };
    for await (const { batch, seed, problems } of fuzzBatches(fuzz, ctx, options)) {
      if (problems.length)
        throw new Error(
          `fuzz batch ${batch} (seed ${seed}; replay with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}) failed on ${dialect}:\n${problems.join('\n')}`,
        );
    }
    expect(stats.cases).toBeGreaterThanOrEqual(RUNS);
    // Every route was reached.
    expect(
      fuzz.routes.filter((route) => !stats.routes.has(`${route.method} ${route.url}`)),
    ).toEqual([]);
    const health = await fuzz.app.inject({ method: 'GET', url: '/readyz' });
    expect(health.statusCode).toBe(200);
  }, 600_000);
});
