/**
 * The load bench (bench/load.ts) on one node, then on two, at the same load: both on one
 * PostgreSQL database and one Redis, so only the number of server processes differs. The machine
 * is shared, so the two setups take turns (1, 2, 1, 2, …) and the report gives each one's median
 * over its runs, and the ratio two nodes / one node.
 *
 *   npx tsx bench/load-nodes.ts                     500 members, 3 minutes, 3 runs of each
 *   LOAD_MEMBERS=200 LOAD_MINUTES=1 LOAD_RUNS=1 npx tsx bench/load-nodes.ts
 *
 * BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres) and BENCH_REDIS_URL
 * (redis://127.0.0.1:6379) say where; each run makes a fresh database and key prefix there.
 * Writes bench/results/load-nodes.md and .json.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, RESULTS_DIR, machine, median, writeReport, writeResult } from './common.ts';

const MEMBERS = process.env.LOAD_MEMBERS ?? '500';
const MINUTES = process.env.LOAD_MINUTES ?? '3';
const RUNS = Number(process.env.LOAD_RUNS ?? 3);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Steady {
  actionsPerSecond: number;
  coresBusy: number;
  cpuMsPerAction: number;
  rowsWrittenPerAction: number;
  p50: number;
  p99: number;
  loopP99Ms: number;
  rssMb: number;
}
interface Run {
  nodes: number;
  round: number;
  errors: number;
  /** The errors by reason, as bench/load.ts counts them. */
  reasons: Record<string, number>;
  steady: Steady;
}

const runs: Run[] = [];
for (let round = 1; round <= RUNS; round++) {
  for (const nodes of [1, 2]) {
    const suffix = `nodes${nodes}-run${round}`;
    console.log(`\n=== ${nodes} node${nodes === 1 ? '' : 's'}, run ${round} of ${RUNS}`);
    spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'load.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        LOAD_MEMBERS: MEMBERS,
        LOAD_MINUTES: MINUTES,
        LOAD_NODES: String(nodes),
        LOAD_REPORT_SUFFIX: suffix,
        BENCH_DATABASE_URL: DATABASE_URL,
        BENCH_REDIS_URL: REDIS_URL,
      },
    });
    // Each run's own report is folded into this one.
    const own = fs.readdirSync(RESULTS_DIR).filter((file) => file.includes(`-${suffix}.`));
    const json = own.find((file) => file.endsWith('.json'));
    if (!json) throw new Error(`the run ${suffix} wrote no report`);
    const result = JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, json), 'utf8')) as {
      steady: Steady;
      errors: Record<string, number>;
    };
    for (const file of own) fs.rmSync(path.join(RESULTS_DIR, file));
    runs.push({
      nodes,
      round,
      errors: Object.values(result.errors).reduce((sum, count) => sum + count, 0),
      reasons: result.errors,
      steady: result.steady,
    });
  }
}

const MEASURES: [key: keyof Steady, label: string, format: (value: number) => string][] = [
  ['actionsPerSecond', 'actions per second', (v) => v.toFixed(1)],
  ['coresBusy', 'server CPU, cores busy (all nodes)', (v) => v.toFixed(3)],
  ['cpuMsPerAction', 'server CPU per action', (v) => `${v.toFixed(2)} ms`],
  ['rowsWrittenPerAction', 'database rows written per action', (v) => v.toFixed(2)],
  ['p50', 'all actions p50', (v) => `${v.toFixed(1)} ms`],
  ['p99', 'all actions p99', (v) => `${v.toFixed(1)} ms`],
  ['loopP99Ms', 'event-loop p99, slowest node', (v) => `${v.toFixed(1)} ms`],
  ['rssMb', 'RSS, all nodes', (v) => `${v.toFixed(0)} MB`],
];
const medianOf = (nodes: number, key: keyof Steady) =>
  median(runs.filter((run) => run.nodes === nodes).map((run) => run.steady[key]));
const medians = Object.fromEntries(
  [1, 2].map((nodes) => [
    nodes,
    Object.fromEntries(MEASURES.map(([key]) => [key, medianOf(nodes, key)])),
  ]),
) as Record<1 | 2, Record<keyof Steady, number>>;

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const summaryRows = MEASURES.map(([key, label, format]) =>
  row([
    label,
    format(medians[1][key]),
    format(medians[2][key]),
    `${(medians[2][key] / medians[1][key]).toFixed(2)}`,
  ]),
);
const runRows = runs.map((run) =>
  row([
    String(run.round),
    String(run.nodes),
    String(run.errors),
    ...MEASURES.map(([key, , format]) => format(run.steady[key])),
  ]),
);
const reasonLines = runs
  .filter((run) => run.errors > 0)
  .map(
    (run) =>
      `- run ${run.round}, ${run.nodes} node${run.nodes === 1 ? '' : 's'}: ${Object.entries(
        run.reasons,
      )
        .sort(([, a], [, b]) => b - a)
        .map(([reason, count]) => `${count} × ${reason}`)
        .join('; ')}`,
  );
const { cpu, cores, node } = machine();
const markdown = `# Load on one node and on two

\`npx tsx bench/load-nodes.ts\` on ${new Date().toISOString().slice(0, 10)}, ${cpu} (${cores} cores, shared with other work), Node ${node}. The load bench (bench/load.ts): ${MEMBERS} members for ${MINUTES} minutes each run, every member with a socket in presence and one action every 5–15 s, on PostgreSQL and Redis. Two nodes share the database and Redis, and the members are dealt to them in turn. The setups took turns, ${RUNS} runs each (1, 2, 1, 2, …); the figures are each setup's median over its runs, from the steady part (every member signed in and connected).

| measure | one node | two nodes | two / one |
| --- | --- | --- | --- |
${summaryRows.join('\n')}

## Every run

| run | nodes | errors | ${MEASURES.map(([, label]) => label).join(' | ')} |
| --- | --- | --- | ${MEASURES.map(() => '---').join(' | ')} |
${runRows.join('\n')}

Errors: ${reasonLines.length ? `\n\n${reasonLines.join('\n')}` : 'none.'}
`;
const report = writeReport('load-nodes', markdown);
writeResult('load-nodes', { members: Number(MEMBERS), minutes: Number(MINUTES), runs, medians });
console.log(`\n${markdown}\nWritten to ${path.relative(process.cwd(), report)}`);
