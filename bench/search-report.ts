/**
 * bench/results/search.md and search-explain.md from search.json, which holds one entry per
 * database (bench/search.ts writes them after each run; `npx tsx bench/search-report.ts` writes
 * them again from the file).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_DIR } from './common.ts';

interface Entry {
  at: string;
  members: number;
  seedSeconds: number;
  queries: number;
  rounds: number;
  service: { p50: number; p99: number; max: number; perQuery?: { p50: number; p99: number } };
  http: { p50: number; p99: number; max: number; perQuery?: { p50: number; p99: number } };
  floor: {
    statement: { p50: number; p99: number; max: number };
    http: { p50: number; p99: number; max: number };
  };
  load: number[];
  statements: { mean: number; max: number };
  kinds: { kind: string; p50: number; p99: number; rows: number; statements: number }[];
  connections: number;
  durationSeconds: number;
  search: { requestsPerSecond: number; latencyP50: number; latencyP99: number };
  bare: { requestsPerSecond: number; latencyP50: number; latencyP99: number };
  ratio: number;
  plans: {
    label: string;
    q: string;
    rows: number;
    statements: { sql: string; parameters: readonly unknown[]; plan: string[] }[];
  }[];
}
export function writeSearchReports(file = path.join(RESULTS_DIR, 'search.json')): void {
  const all = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    machine: { cpu: string; cores: number; node: string };
  } & Partial<Record<'sqlite' | 'postgres', Entry>>;
  const GOALS = { sqlite: 10, postgres: 20 } as const;
  const entries = (['sqlite', 'postgres'] as const).flatMap((name) => {
    const entry = all[name];
    return entry ? [[name, entry] as const] : [];
  });
  const cell = (value: number) => value.toFixed(2);
  const report = [
    '# Member search at 100,000 members',
    '',
    `Written by \`bench/search.ts\` (\`npx tsx bench/search.ts\`, and with \`BENCH_DATABASE_URL\` for PostgreSQL) on ${all.machine.cpu}, ${all.machine.cores} cores, Node ${all.machine.node}. Each database's figures come from its own run; see the dates.`,
    '',
    '## One search at a time',
    '',
    "Every query of the mix searched in turn, not concurrently: **service** times `searchMembers` on the app's database (the statement, its rows and the results built from them); **HTTP** times `GET /api/users/search` with a bearer token on a kept-alive connection (session lookup, validation, serialisation included). Limit 12.",
    '',
    '| database | members | run | searches | service p50 | service p99 | HTTP p50 | HTTP p99 | goal (p99) | statements per search (mean / max) |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...entries.map(
      ([name, e]) =>
        `| ${name} | ${e.members.toLocaleString('en')} | ${e.at} | ${e.queries * e.rounds} | ${cell(e.service.p50)} ms | ${cell(e.service.p99)} ms | ${cell(e.http.p50)} ms | ${cell(e.http.p99)} ms | ≤ ${GOALS[name]} ms | ${e.statements.mean.toFixed(2)} / ${e.statements.max} |`,
    ),
    '',
    "The same searches, each query's median over the rounds first, then p50/p99 over the queries: the slowest queries' own cost, with most of the moments this shared machine took the CPU away filtered out.",
    '',
    '| database | service p50 | service p99 | HTTP p50 | HTTP p99 |',
    '|---|---|---|---|---|',
    ...entries.flatMap(([name, e]) =>
      e.service.perQuery && e.http.perQuery
        ? [
            `| ${name} | ${cell(e.service.perQuery.p50)} ms | ${cell(e.service.perQuery.p99)} ms | ${cell(e.http.perQuery.p50)} ms | ${cell(e.http.perQuery.p99)} ms |`,
          ]
        : [],
    ),
    '',
    "The floors, measured between those searches in the same loop: a trivial `select 1` on the same database through the same Kysely, and a bare Fastify route over HTTP. Where a floor's p99 is far above its p50 the machine was busy (load average at the end of the run shown); a search's p99 cannot be lower than its floor's.",
    '',
    '| database | `select 1` p50 | `select 1` p99 | bare route p50 | bare route p99 | load average (1, 5, 15 min) |',
    '|---|---|---|---|---|---|',
    ...entries
      .filter(([, e]) => e.floor)
      .map(
        ([name, e]) =>
          `| ${name} | ${cell(e.floor.statement.p50)} ms | ${cell(e.floor.statement.p99)} ms | ${cell(e.floor.http.p50)} ms | ${cell(e.floor.http.p99)} ms | ${e.load.map((value) => value.toFixed(1)).join(', ')} |`,
      ),
    '',
    '### By kind of query (service)',
    '',
    `| kind | ${entries.map(([name]) => `${name} p50 | ${name} p99 | ${name} rows`).join(' | ')} |`,
    `|---|${entries.map(() => '---|---|---|').join('')}`,
    ...(entries[0]?.[1].kinds ?? []).map(
      (kind) =>
        `| ${kind.kind} | ${entries
          .map(([, e]) => {
            const k = e.kinds.find((other) => other.kind === kind.kind);
            return k ? `${cell(k.p50)} ms | ${cell(k.p99)} ms | ${k.rows.toFixed(1)}` : '– | – | –';
          })
          .join(' | ')} |`,
    ),
    '',
    '## Under load',
    '',
    'The same mix from autocannon, against a bare Fastify route answering `{users: []}` in the same run. With several connections in flight on one Node process a request also waits for the others, so these latencies are queueing, not the cost of one search.',
    '',
    '| database | connections × seconds | search req/s | p50 | p99 | bare req/s | search ÷ bare |',
    '|---|---|---|---|---|---|---|',
    ...entries.map(
      ([name, e]) =>
        `| ${name} | ${e.connections} × ${e.durationSeconds} | ${e.search.requestsPerSecond.toFixed(0)} | ${e.search.latencyP50} ms | ${e.search.latencyP99} ms | ${e.bare.requestsPerSecond.toFixed(0)} | ${(e.ratio * 100).toFixed(0)} % |`,
    ),
    '',
    'Query plans: [search-explain.md](search-explain.md).',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'search.md'), report);

  const explain = [
    "# The search statement's plans at 100,000 members",
    '',
    'One statement per search (docs/decisions.md "Search in one statement"), captured from `searchMembers` and explained on the bench database: SQLite `EXPLAIN QUERY PLAN`, PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)`. Written by `bench/search.ts`.',
    '',
    ...entries.flatMap(([name, e]) => [
      `## ${name} (${e.members.toLocaleString('en')} members, ${e.at})`,
      '',
      ...e.plans.flatMap((plan) => [
        `### ${plan.label}: \`${plan.q}\` → ${plan.rows} rows, ${plan.statements.length} statement(s)`,
        '',
        ...plan.statements.flatMap((statement) => [
          '```sql',
          statement.sql.replace(/\s+/g, ' ').trim(),
          '```',
          '',
          `Parameters: \`${JSON.stringify(statement.parameters)}\``,
          '',
          '```',
          ...statement.plan,
          '```',
          '',
        ]),
      ]),
    ]),
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS_DIR, 'search-explain.md'), explain);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeSearchReports();
  console.log('Written to bench/results/search.md and bench/results/search-explain.md');
}
