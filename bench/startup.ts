/**
 * Time from `node scripts/start.mjs` to the first 200 on `/`, with an existing build and a fresh
 * data directory each time (so migrations run every time). `npx tsx bench/startup.ts`
 */
import { ensureBuild, median, startApp, table, writeResult } from './common.ts';

const RUNS = 5;

ensureBuild();
// One untimed start: it rebuilds a stale build and warms the file-system cache.
await (await startApp(180_000)).stop();

const times: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  const app = await startApp();
  times.push(app.readyMs);
  console.log(`run ${run}: ${app.readyMs.toFixed(0)} ms`);
  await app.stop();
}

const result = { runs: RUNS, medianMs: median(times), maxMs: Math.max(...times), timesMs: times };
console.log(`\nnpm start → first 200 on / (existing build, fresh data directory, ${RUNS} runs)`);
console.log(
  table([
    ['median', 'max'],
    [`${result.medianMs.toFixed(0)} ms`, `${result.maxMs.toFixed(0)} ms`],
  ]),
);
console.log(`Written to ${writeResult('startup', result)}`);
