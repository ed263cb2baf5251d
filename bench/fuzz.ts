/**
 * The fuzz suite's generators at volume: FUZZ_RUNS cases (default 50,000) against a real app on
 * SQLite, and on PostgreSQL when BENCH_DATABASE_URL names a server (a fresh database on it,
 * dropped afterwards). Reports cases per second, the statuses seen and every failing case; a
 * failure ends its batch, the run goes on with the next and exits with 1 at the end.
 *
 *   npx tsx bench/fuzz.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/fuzz.ts
 *
 * BENCH_DIALECTS=sqlite or =postgres runs one database only.
 * FUZZ_SEED replays a run (the seed is printed).
 */
import { buildFuzzApp, type FuzzDialect } from '../server/test/fuzz/app.ts';
import { fuzzBatches, fuzzSettings, newStats, setUpContext } from '../server/test/fuzz/run.ts';
import { table, writeResultEntry } from './common.ts';

const { runs: RUNS, seed: SEED } = fuzzSettings(50_000);
const BATCH = 500;
const PG_URL = process.env.BENCH_DATABASE_URL;

async function fuzzDialect(dialect: FuzzDialect) {
  const fuzz = await buildFuzzApp({ dialect, ...(PG_URL ? { postgresUrl: PG_URL } : {}) });
  const stats = newStats();
  const failures: string[] = [];
  try {
    const ctx = await setUpContext(fuzz);
    const started = performance.now();
    const options = { runs: RUNS, batchSize: BATCH, seed: SEED, stats };
    for await (const { batch, seed, problems } of fuzzBatches(fuzz, ctx, options)) {
      for (const problem of problems) {
        failures.push(`batch ${batch} (seed ${seed}): ${problem}`);
        console.error(failures.at(-1));
      }
      if (batch % 10 === 9) console.log(`${dialect}: ${stats.cases} cases…`);
    }
    const seconds = (performance.now() - started) / 1000;
    return { stats, seconds, failures };
  } finally {
    await fuzz.close();
  }
}

const dialects = (process.env.BENCH_DIALECTS ?? (PG_URL ? 'sqlite,postgres' : 'sqlite'))
  .split(',')
  .map((name) => name.trim()) as FuzzDialect[];
for (const dialect of dialects) {
  if (dialect !== 'sqlite' && dialect !== 'postgres')
    throw new Error(`BENCH_DIALECTS: unknown database "${dialect as string}"`);
  if (dialect === 'postgres' && !PG_URL) throw new Error('postgres needs BENCH_DATABASE_URL');
}
const rows = [['database', 'cases', 'cases/s', 'failures', 'statuses']];
let failed = false;
console.log(`fuzz: ${RUNS} cases per database, seed ${SEED} (FUZZ_SEED=${SEED} to replay)`);
for (const dialect of dialects) {
  const { stats, seconds, failures } = await fuzzDialect(dialect);
  const statuses = Object.fromEntries([...stats.statuses].sort(([a], [b]) => a - b));
  const rate = stats.cases / seconds;
  rows.push([
    dialect,
    String(stats.cases),
    rate.toFixed(0),
    String(failures.length),
    Object.entries(statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' '),
  ]);
  writeResultEntry('fuzz', ['sqlite', 'postgres'], dialect, {
    runs: RUNS,
    seed: SEED,
    cases: stats.cases,
    seconds: Number(seconds.toFixed(1)),
    casesPerSecond: Number(rate.toFixed(1)),
    statuses,
    failures,
  });
  failed ||= failures.length > 0;
}
console.log(table(rows));
if (failed) process.exit(1);
