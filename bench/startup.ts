/**
 * Time from start to the first 200 on `/`, with existing builds and a fresh data directory each
 * time (so migrations run every time), for three ways of starting, alternated in one run:
 * - `npm start` (`node scripts/start.mjs`: build check, then the compiled server and relay);
 * - the compiled server alone (`node --enable-source-maps build/server.mjs`);
 * - the server from its TypeScript sources through tsx, as `npm start` ran it before it was
 *   compiled (the server alone, so a lower bound of that old start).
 * `npx tsx bench/startup.ts`
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, ensureBuild, median, startApp, table, writeResult } from './common.ts';

const RUNS = 7;

const WAYS = {
  'npm start (compiled)': [path.join(ROOT, 'scripts/start.mjs')],
  'build/server.mjs alone': ['--enable-source-maps', path.join(ROOT, 'build/server.mjs')],
  'tsx server/src/main.ts (before)': ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')],
} as const;
type Way = keyof typeof WAYS;

ensureBuild();
const compiled = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], {
  stdio: 'inherit',
});
if (compiled.status !== 0) throw new Error('compiling the server failed');

// One untimed start of each warms the file-system cache (and tsx's transform cache).
for (const args of Object.values(WAYS)) await (await startApp(180_000, args)).stop();

const times = Object.fromEntries(Object.keys(WAYS).map((way) => [way, [] as number[]])) as Record<
  Way,
  number[]
>;
for (let run = 1; run <= RUNS; run++) {
  for (const [way, args] of Object.entries(WAYS) as [Way, readonly string[]][]) {
    const app = await startApp(60_000, args);
    times[way].push(app.readyMs);
    await app.stop();
  }
  console.log(
    `run ${run}: ${Object.values(times)
      .map((list) => `${list.at(-1)?.toFixed(0)} ms`)
      .join(' / ')}`,
  );
}

const result = Object.fromEntries(
  Object.entries(times).map(([way, list]) => [
    way,
    { medianMs: median(list), maxMs: Math.max(...list), timesMs: list },
  ]),
);
console.log(`\nstart → first 200 on / (existing builds, fresh data directory, ${RUNS} runs each)`);
console.log(
  table([
    ['way', 'median', 'max'],
    ...Object.entries(result).map(([way, r]) => [
      way,
      `${r.medianMs.toFixed(0)} ms`,
      `${r.maxMs.toFixed(0)} ms`,
    ]),
  ]),
);
console.log(`Written to ${writeResult('startup', { runs: RUNS, ways: result })}`);
