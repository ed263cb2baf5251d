/**
 * Member search over 100,000 seeded members, on one database per run:
 *   - each query of a fixed mix (1–4 letter prefixes, full names, substrings, misses) searched one
 *     at a time through the service (`searchMembers` on the app's database) and through HTTP
 *     (`GET /api/users/search`, one request at a time): p50/p99 and statements per search;
 *   - the same mix under load (autocannon, CONNECTIONS connections) against a bare Fastify route
 *     in the same run;
 *   - the plan of the search statement: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's
 *     EXPLAIN (ANALYZE, BUFFERS).
 *
 *   npx tsx bench/search.ts                                    SQLite (temporary data directory)
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/search.ts    PostgreSQL (a fresh database on
 *                                                              that server, dropped afterwards)
 *
 * Each run keeps the other database's entry in bench/results/search.json and writes
 * bench/results/search.md and search-explain.md from both (`npx tsx bench/search-report.ts` writes
 * them again from the JSON).
 *
 * BENCH_MEMBERS (default 100000), BENCH_DURATION (seconds, default 10), BENCH_ROUNDS (times the
 * mix is searched one at a time, default 5), BENCH_WORKERS=0 runs the load on the main thread.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Result } from 'autocannon';
import Fastify from 'fastify';
import { CompiledQuery } from 'kysely';
import type { NewUserRow } from '../server/src/db/schema.ts';
import { searchMembers } from '../server/src/features/friends/search.ts';
import { mediaUrlFor } from '../server/src/media/index.ts';
import { searchKeys } from '../server/src/members/keys.ts';
import {
  CONNECTIONS,
  LOAD_SECONDS,
  loadWithoutErrors,
  median,
  statementRecorder,
  summary,
  table,
  throughputRow,
  writeResultEntry,
} from './common.ts';
import { writeSearchReports } from './search-report.ts';
import { signupBenchMember, startBenchApp } from './gallery-fixtures.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const BATCH = 1_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LIMIT = 12;
const DURATION_S = Number(process.env.BENCH_DURATION ?? LOAD_SECONDS);
const QUERIES = 300;
const PG_URL = process.env.BENCH_DATABASE_URL;

// ---------------------------------------------------------------------------------------------
// Names: a seeded generator, so every run searches the same members with the same queries.

let seed = 0x5eed;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const FIRST =
  `Ada Adrian Aisha Akira Alejandro Alice Amara Amir Ana Anders Andrea Anika Arjun Astrid
Aurora Ayla Beatriz Benedikt Bianca Bjorn Bruno Camila Carlos Carmen Cassius Chen Chiara Chloe
Clara Cyrus Dalia Daniel Dante Darius Dev Diego Dmitri Elena Elias Elif Emeka Emil Emma Enzo Esme
Ethan Eva Fatima Felix Freya Gabriel Gaia Giulia Hana Hannah Hugo Ibrahim Ines Ingrid Isaac Ivan
Jade Jakob Jamal Javier Jonas Julia Kai Kamala Karim Kenji Kira Lars Layla Leila Leo Lena Liam Lina
Lucas Lucia Luna Maja Malik Marco Maria Mateo Maya Mei Mila Mina Nadia Naomi Nia Nico Nikolai Nina
Noah Nora Nova Olga Oliver Omar Orion Oscar Pablo Priya Quinn Rafael Ravi Rhea Rosa Ruben Sakura
Samir Sara Sebastian Selene Sofia Soren Stella Tariq Tess Theo Ulla Valentina Vera Viktor Wei
Xavier Yara Yuki Yusuf Zara Zeynep Zoe`.split(/\s+/);
const LAST = `Abara Adeyemi Albrecht Almeida Andersson Araujo Bakker Banerjee Becker Bianchi Bjork
Bouchard Carvalho Castillo Chowdhury Costa Cruz Dahl Dubois Eriksen Esposito Fernandes Ferrari
Fischer Fontaine Garcia Gonzalez Gupta Haddad Hansen Hartmann Herrera Horvath Ibrahim Ito Ivanova
Jansen Jimenez Johansson Kaplan Kaur Kowalski Kruger Kumar Laine Larsen Lefebvre Lindqvist Lopez
Lovelace Marin Martins Mendes Meyer Moreau Morales Nakamura Navarro Nguyen Nielsen Novak Okafor
Oliveira Ortiz Park Pereira Petrov Popescu Quispe Ramos Reyes Richter Rossi Santos Sato Schmidt
Schneider Silva Sokolov Suzuki Tanaka Torres Varga Vasquez Virtanen Wagner Wang Weber Yilmaz
Yamamoto Zhang Zielinski`.split(/\s+/);
const WORDS = [
  'star',
  'nova',
  'orbit',
  'comet',
  'astro',
  'luna',
  'nebula',
  'cosmo',
  'solar',
  'void',
];

function memberName(index: number, taken: Set<string>) {
  const first = pick(FIRST);
  const last = pick(LAST);
  const n = Math.floor(random() * 10_000);
  const styles = [
    () => `${first}${last}`,
    () => `${first}.${last}`,
    () => `${first}_${n}`,
    () => `${first[0] ?? ''}${last}${n % 100}`,
    () => `${last}.${first}`,
    () => `${pick(WORDS)}${first}`,
    () => `${pick(WORDS)}_${last}${n % 1000}`,
  ];
  let username = pick(styles)()
    .slice(0, 16)
    .replace(/[^A-Za-z0-9._-]/g, '');
  if (random() < 0.5) username = username.toLowerCase();
  while (username.length < 3 || taken.has(username.toLowerCase())) username += String(index % 10);
  if (username.length > 20) username = `m${index}`;
  taken.add(username.toLowerCase());
  return { username, first: random() < 0.97 ? first : '', last: random() < 0.95 ? last : '' };
}

function seedRow(index: number, taken: Set<string>, now: string): NewUserRow {
  const { username, first, last } = memberName(index, taken);
  return {
    id: randomUUID(),
    username,
    username_key: username.toLowerCase(),
    email: `${username.toLowerCase()}.${index}@seed.orbit.example`,
    email_key: `${username.toLowerCase()}.${index}@seed.orbit.example`,
    password_hash: 'seeded-member-cannot-log-in',
    first_name: first,
    last_name: last,
    birthday: '1990-01-01',
    profile_image: '',
    interests: '[]',
    referral: '',
    referral_code: `S${index.toString(36).toUpperCase().padStart(7, '0')}`,
    theme: 'normal1',
    favorite_quote: '',
    security_question: '',
    security_answer_hash: '',
    ...searchKeys(username, first, last),
    created_at: now,
    updated_at: now,
  };
}

/** The kinds of query a member types, each made from the seed names. */
const MAKERS: Record<string, () => string> = {
  'first-name prefix, 1–4 letters': () => pick(FIRST).slice(0, 1 + Math.floor(random() * 4)),
  'last-name prefix, 1–4 letters': () => pick(LAST).slice(0, 1 + Math.floor(random() * 4)),
  'full name, last name begun': () =>
    `${pick(FIRST)} ${pick(LAST).slice(0, 1 + Math.floor(random() * 3))}`,
  'username prefix': () => `${pick(WORDS)}${pick(FIRST).slice(0, 2)}`.toLowerCase(),
  'inside a last name': () => inner(pick(LAST)),
  'inside a first name': () => inner(pick(FIRST)),
  'a miss': () => `zq${Math.floor(random() * 100)}x`,
};

function inner(word: string) {
  const start = 1 + Math.floor(random() * Math.max(1, word.length - 4));
  return word.slice(start, start + 3 + Math.floor(random() * 2));
}

/** QUERIES queries of every kind in turn, 30% of them typed in capitals. */
function queries(): { kind: string; q: string }[] {
  const kinds = Object.keys(MAKERS);
  return Array.from({ length: QUERIES }, (_, i) => {
    const kind = kinds[i % kinds.length] as string;
    const q = (MAKERS[kind] as () => string)();
    return { kind, q: random() < 0.3 ? q.toUpperCase() : q };
  });
}

// ---------------------------------------------------------------------------------------------
// Database and app

const recorder = statementRecorder();
const bench = await startBenchApp('search', { postgresUrl: PG_URL, onQuery: recorder.onQuery });
const { app, base } = bench;
const dialect = app.dialect;
console.log(`Seeding ${MEMBERS.toLocaleString('en')} members on ${dialect}…`);

const seedStarted = performance.now();
const taken = new Set<string>();
const now = new Date().toISOString();
// One transaction, multi-row inserts of BATCH rows (under both databases' bound-parameter limits).
await app.db.transaction().execute(async (trx) => {
  for (let start = 0; start < MEMBERS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, MEMBERS - start) }, (_, i) =>
      seedRow(start + i, taken, now),
    );
    await trx.insertInto('users').values(rows).execute();
  }
});
// What autovacuum does soon after a bulk load: statistics for the planner, and the GIN index's
// pending list merged (until then every trigram lookup also scans that list). SQLite's ANALYZE
// likewise gives its planner the key indexes' statistics.
await app.db.executeQuery(
  CompiledQuery.raw(dialect === 'postgres' ? 'vacuum analyze users' : 'analyze'),
);
const seedSeconds = (performance.now() - seedStarted) / 1000;
console.log(`Seeded in ${seedSeconds.toFixed(1)} s.`);

// The searching member signs up through the real endpoint.
const { token, userId } = await signupBenchMember(base, 'bench.searcher', {
  firstName: 'Bench',
  lastName: 'Searcher',
});

// ---------------------------------------------------------------------------------------------
// One search at a time: the service on the app's own database, counting its statements.

const viewer = await app.db
  .selectFrom('users')
  .selectAll()
  .where('id', '=', userId)
  .executeTakeFirstOrThrow();
const mediaUrl = mediaUrlFor(undefined);

const mix = queries();
// A bare Fastify route in the same process, the floor of an HTTP request on this machine.
const bare = Fastify({ logger: { level: 'warn' } });
bare.get('/api/users/search', () => ({ users: [] }));
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = bare.server.address();
if (!bareAddress || typeof bareAddress === 'string')
  throw new Error('the bare app is not listening');
const bareBase = `http://127.0.0.1:${bareAddress.port}`;

async function timedGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return ms;
}

// Each query in turn through the service, then through HTTP; between them the floors this busy
// machine sets in the same moment: a trivial statement on the same database, and the bare route.
const serviceMs: number[] = [];
const httpMs: number[] = [];
const floorStatementMs: number[] = [];
const floorHttpMs: number[] = [];
const statementsPerSearch: number[] = [];
const byKind = new Map<string, { ms: number[]; rows: number[]; statements: number[] }>();
const trivial = CompiledQuery.raw('select 1 as one');
for (const { q } of mix.slice(0, 50)) {
  await searchMembers(app.db, dialect, viewer, q, LIMIT, mediaUrl); // warm-up
}
const searchUrl = (q: string) =>
  `${base}/api/users/search?q=${encodeURIComponent(q)}&limit=${LIMIT}`;
for (let round = 0; round < ROUNDS; round++) {
  for (const { kind, q } of mix) {
    const started = performance.now();
    const { result: rows, statements } = await recorder.during(() =>
      searchMembers(app.db, dialect, viewer, q, LIMIT, mediaUrl),
    );
    const ms = performance.now() - started;
    serviceMs.push(ms);
    statementsPerSearch.push(statements.length);
    const entry = byKind.get(kind) ?? { ms: [], rows: [], statements: [] };
    entry.ms.push(ms);
    entry.rows.push(rows.length);
    entry.statements.push(statements.length);
    byKind.set(kind, entry);

    const floorStarted = performance.now();
    await app.db.executeQuery(trivial);
    floorStatementMs.push(performance.now() - floorStarted);
    httpMs.push(await timedGet(searchUrl(q), { authorization: `Bearer ${token}` }));
    floorHttpMs.push(await timedGet(`${bareBase}/api/users/search`));
  }
}

const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
/**
 * Each query's median over the rounds, then p50/p99 over the queries: what the slowest queries
 * cost, with the moments this shared machine took the CPU away mostly filtered out.
 */
const perQuery = (values: readonly number[]) =>
  summary(
    mix.map((_, i) =>
      median(Array.from({ length: ROUNDS }, (_, round) => values[round * mix.length + i] ?? 0)),
    ),
  );
const service = { ...summary(serviceMs), mean: mean(serviceMs), perQuery: perQuery(serviceMs) };
const http = { ...summary(httpMs), mean: mean(httpMs), perQuery: perQuery(httpMs) };
const floor = {
  statement: { ...summary(floorStatementMs), mean: mean(floorStatementMs) },
  http: { ...summary(floorHttpMs), mean: mean(floorHttpMs) },
};
const statements = { mean: mean(statementsPerSearch), max: Math.max(...statementsPerSearch) };
const kinds = [...byKind].map(([kind, entry]) => ({
  kind,
  ...summary(entry.ms),
  rows: mean(entry.rows),
  statements: mean(entry.statements),
}));

// ---------------------------------------------------------------------------------------------
// Query plans: the statement one search runs, captured, then explained on the same database.

async function plans(label: string, q: string) {
  const { result: rows, statements } = await recorder.during(() =>
    searchMembers(app.db, dialect, viewer, q, LIMIT, mediaUrl),
  );
  const out: { sql: string; parameters: readonly unknown[]; plan: string[] }[] = [];
  for (const { query } of statements) {
    const prefix = dialect === 'postgres' ? 'explain (analyze, buffers) ' : 'explain query plan ';
    const result = await app.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
    );
    const plan = result.rows.map((row) =>
      dialect === 'postgres'
        ? String(row['QUERY PLAN'])
        : `${'  '.repeat(depthOf(result.rows, row))}${String(row.detail)}`,
    );
    out.push({ sql: query.sql, parameters: query.parameters, plan });
  }
  console.log(
    `\n${label}: q=${JSON.stringify(q)} → ${rows.length} rows, ${out.length} statement(s)`,
  );
  for (const { plan } of out) for (const line of plan) console.log(`    ${line}`);
  return { label, q, rows: rows.length, statements: out };
}

/** A SQLite plan row's depth, from its parent ids. */
function depthOf(rows: readonly Record<string, unknown>[], row: Record<string, unknown>): number {
  let depth = 0;
  let parent = row.parent;
  while (parent) {
    depth += 1;
    parent = rows.find((other) => other.id === parent)?.parent;
  }
  return depth;
}

const explained = [
  await plans('Prefix search that fills the limit (substring branch not run)', 'mar'),
  await plans('Prefix search on a single letter', 'k'),
  await plans('Full name', 'sofia gar'),
  await plans('Few prefix matches, so the substring branch runs', 'ndr'),
  await plans('A rare substring', 'ilmaz'),
  await plans('Nobody', 'zq12x'),
];

// ---------------------------------------------------------------------------------------------
// Load

const paths = mix.map(({ q }) => `/api/users/search?q=${encodeURIComponent(q)}&limit=${LIMIT}`);
async function load(origin: string, headers: Record<string, string> = {}) {
  const options = {
    url: origin,
    headers,
    requests: paths.map((requestPath) => ({ method: 'GET', path: requestPath })),
  };
  await loadWithoutErrors({ ...options, duration: 2 });
  return loadWithoutErrors({ ...options, duration: DURATION_S });
}

const bareResult = await load(`http://127.0.0.1:${bareAddress.port}`);
const searchResult = await load(base, { authorization: `Bearer ${token}` });
// Requests the load generator abandoned at the end are still running; let them finish first.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
await pause(500);
await Promise.all([bench.close(), bare.close()]);

const ratio = searchResult.requests.average / bareResult.requests.average;
const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(
  `\nOne search at a time on ${dialect}, ${MEMBERS.toLocaleString('en')} members, ${QUERIES} queries × ${ROUNDS}`,
);
console.log(
  table([
    ['measured at', 'p50', 'p99', 'max', 'statements per search (mean / max)'],
    [
      'service (searchMembers)',
      ms(service.p50),
      ms(service.p99),
      ms(service.max),
      `${statements.mean.toFixed(2)} / ${statements.max}`,
    ],
    ['HTTP (GET /api/users/search)', ms(http.p50), ms(http.p99), ms(http.max), ''],
    ['service, per-query medians', ms(service.perQuery.p50), ms(service.perQuery.p99), '', ''],
    ['HTTP, per-query medians', ms(http.perQuery.p50), ms(http.perQuery.p99), '', ''],
    [
      'floor: select 1 on the same database',
      ms(floor.statement.p50),
      ms(floor.statement.p99),
      ms(floor.statement.max),
      '',
    ],
    [
      'floor: bare Fastify route over HTTP',
      ms(floor.http.p50),
      ms(floor.http.p99),
      ms(floor.http.max),
      '',
    ],
  ]),
);
console.log(
  table([
    ['query kind', 'service p50', 'service p99', 'rows', 'statements'],
    ...kinds.map((kind) => [
      kind.kind,
      ms(kind.p50),
      ms(kind.p99),
      kind.rows.toFixed(1),
      kind.statements.toFixed(2),
    ]),
  ]),
);
console.log(
  `\nUnder load: ${CONNECTIONS} connections for ${DURATION_S} s each\n${table([
    ['route', 'req/s', 'latency p50', 'latency p99'],
    throughputRow('GET /api/users/search (bearer)', searchResult),
    throughputRow('bare Fastify GET /api/users/search', bareResult),
  ])}`,
);
console.log(`\nSearch reaches ${(ratio * 100).toFixed(0)}% of the bare route's requests/s.`);

const stats = (result: Result) => ({
  requestsPerSecond: result.requests.average,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
});
// One file for both databases: this run replaces its own dialect's entry and keeps the other's.
const file = writeResultEntry('search', ['sqlite', 'postgres'], dialect, {
  at: new Date().toISOString(),
  members: MEMBERS,
  seedSeconds,
  queries: QUERIES,
  rounds: ROUNDS,
  service,
  http,
  floor,
  load: os.loadavg(),
  statements,
  kinds,
  connections: CONNECTIONS,
  durationSeconds: DURATION_S,
  search: stats(searchResult),
  bare: stats(bareResult),
  ratio,
  plans: explained,
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);

writeSearchReports(file);
console.log('Written to bench/results/search.md and bench/results/search-explain.md');
