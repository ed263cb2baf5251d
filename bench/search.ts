/**
 * Member search over 100,000 seeded members: GET /api/users/search throughput and latency against a
 * bare Fastify route in the same run, and the query plans of the prefix and contains queries.
 *
 *   npx tsx bench/search.ts                                    SQLite (temporary data directory)
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/search.ts    PostgreSQL (a fresh database on
 *                                                              that server, dropped afterwards)
 *
 * BENCH_MEMBERS (default 100000), BENCH_DURATION (seconds, default 10), BENCH_WORKERS=0 runs the load
 * on the main thread.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import type { Database, NewUserRow } from '../server/src/db/schema.ts';
import { searchMembers } from '../server/src/features/friends/search.ts';
import { mediaUrlFor } from '../server/src/media/index.ts';
import { searchKeys } from '../server/src/members/searchKeys.ts';
import { createFreshDatabase } from '../server/test/postgres.ts';
import {
  CONNECTIONS,
  LOAD_SECONDS,
  LOAD_WORKERS,
  table,
  throughputRow,
  writeResultEntry,
} from './common.ts';
import { signupBenchMember } from './gallery-fixtures.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const BATCH = 1_000;
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

/** Varied queries: first-name, last-name and username prefixes, full names, inner parts, misses. */
function queries(): string[] {
  const inner = (word: string) => {
    const start = 1 + Math.floor(random() * Math.max(1, word.length - 4));
    return word.slice(start, start + 3 + Math.floor(random() * 2));
  };
  const makers = [
    () => pick(FIRST).slice(0, 2 + Math.floor(random() * 4)),
    () => pick(LAST).slice(0, 3 + Math.floor(random() * 3)),
    () => `${pick(FIRST)} ${pick(LAST).slice(0, 1 + Math.floor(random() * 3))}`,
    () => `${pick(WORDS)}${pick(FIRST).slice(0, 2)}`.toLowerCase(),
    () => inner(pick(LAST)),
    () => inner(pick(FIRST)),
    () => `zq${Math.floor(random() * 100)}x`,
  ];
  return Array.from({ length: QUERIES }, () => pick(makers)()).map((q) =>
    random() < 0.3 ? q.toUpperCase() : q,
  );
}

// ---------------------------------------------------------------------------------------------
// Database and app

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-search-'));
let databaseUrl: string | undefined;
let dropDatabase = async () => {};
if (PG_URL) {
  const database = await createFreshDatabase(PG_URL, 'orbit_bench');
  databaseUrl = database.url;
  dropDatabase = () => database.drop();
}

const config = loadConfig({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  STATIC_DIR: path.join(dataDir, 'no-build'),
  LOG_LEVEL: 'warn',
  AUTH_RATE_LIMIT: '1000000',
  UPLOADS_AT_ONCE: '1000',
  UPLOADS_PER_HOUR: '1000000',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const app = await buildApp(config);
const dialect = app.dialect;
console.log(`Seeding ${MEMBERS.toLocaleString('en')} members on ${dialect}…`);

const seedStarted = performance.now();
const taken = new Set<string>();
const now = new Date().toISOString();
for (let start = 0; start < MEMBERS; start += BATCH) {
  const rows = Array.from({ length: Math.min(BATCH, MEMBERS - start) }, (_, i) =>
    seedRow(start + i, taken, now),
  );
  await app.db.transaction().execute((trx) => trx.insertInto('users').values(rows).execute());
}
// What autovacuum does soon after a bulk load: statistics for the planner, and the GIN index's
// pending list merged (until then every trigram lookup also scans that list).
if (dialect === 'postgres') await app.db.executeQuery(CompiledQuery.raw('vacuum analyze users'));
const seedSeconds = (performance.now() - seedStarted) / 1000;
console.log(`Seeded in ${seedSeconds.toFixed(1)} s.`);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
const base = `http://127.0.0.1:${address.port}`;

// The searching member signs up through the real endpoint.
const { token, userId } = await signupBenchMember(base, 'bench.searcher', {
  firstName: 'Bench',
  lastName: 'Searcher',
});

// ---------------------------------------------------------------------------------------------
// Query plans: the statements one search runs, captured from a logging connection, then explained.

const captured: CompiledQuery[] = [];
const logged = new Kysely<Database>({
  dialect: databaseUrl
    ? new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) })
    : new SqliteDialect({ database: new SQLite(config.sqlitePath, { readonly: true }) }),
  log: (event) => {
    if (event.level === 'query') captured.push(event.query);
  },
});
const viewer = await logged
  .selectFrom('users')
  .selectAll()
  .where('id', '=', userId)
  .executeTakeFirstOrThrow();

async function plans(label: string, q: string) {
  captured.length = 0;
  const rows = await searchMembers(logged, dialect, viewer, q, 12, mediaUrlFor(undefined));
  const statements = captured.filter((query) => query.sql.includes('from "users'));
  const out: { sql: string; parameters: readonly unknown[]; plan: string[] }[] = [];
  for (const query of statements) {
    const prefix = dialect === 'postgres' ? 'explain (analyze, costs off) ' : 'explain query plan ';
    const result = await logged.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(prefix + query.sql, [...query.parameters]),
    );
    const plan = result.rows.map((row) =>
      dialect === 'postgres' ? String(row['QUERY PLAN']) : String(row.detail),
    );
    out.push({ sql: query.sql, parameters: query.parameters, plan });
  }
  console.log(`\n${label}: q=${JSON.stringify(q)} → ${rows.length} rows`);
  for (const { sql, parameters, plan } of out) {
    console.log(`  ${sql}\n    ${JSON.stringify(parameters)}`);
    for (const line of plan) console.log(`      ${line}`);
  }
  return { q, rows: rows.length, statements: out };
}

const prefixPlan = await plans('Prefix search (12 prefix rows, no contains query)', 'mar');
const containsPlan = await plans('Contains search (prefix queries, then contains)', 'ndr');
const rarePlan = await plans('Contains search for a rare substring', 'ilmaz');
const missPlan = await plans('Contains search that finds nobody', 'zq12x');
await logged.destroy();

// ---------------------------------------------------------------------------------------------
// Load

const paths = queries().map((q) => `/api/users/search?q=${encodeURIComponent(q)}&limit=12`);
const bare = Fastify({ logger: { level: 'warn' } });
bare.get('/api/users/search', () => ({ users: [] }));
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = bare.server.address();
if (!bareAddress || typeof bareAddress === 'string')
  throw new Error('the bare app is not listening');

async function load(origin: string, headers: Record<string, string> = {}): Promise<Result> {
  const options = {
    url: origin,
    headers,
    connections: CONNECTIONS,
    requests: paths.map((requestPath) => ({ method: 'GET', path: requestPath })),
    ...LOAD_WORKERS,
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${origin}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result;
}

const bareResult = await load(`http://127.0.0.1:${bareAddress.port}`);
const searchResult = await load(base, { authorization: `Bearer ${token}` });
// Requests the load generator abandoned at the end are still running; let them finish first.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
await pause(500);
await Promise.all([app.close(), bare.close()]);
await pause(300); // the pool's connections close just after app.close() resolves
await dropDatabase();
fs.rmSync(dataDir, { recursive: true, force: true });

const ratio = searchResult.requests.average / bareResult.requests.average;
const row = throughputRow;
console.log(
  `\nThroughput on ${dialect}, ${MEMBERS.toLocaleString('en')} members, ${QUERIES} varied queries, ${CONNECTIONS} connections for ${DURATION_S} s each`,
);
console.log(
  table([
    ['route', 'req/s', 'latency p50', 'latency p99'],
    row('GET /api/users/search (bearer)', searchResult),
    row('bare Fastify GET /api/users/search', bareResult),
  ]),
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
  connections: CONNECTIONS,
  durationSeconds: DURATION_S,
  search: stats(searchResult),
  bare: stats(bareResult),
  ratio,
  plans: { prefix: prefixPlan, contains: containsPlan, rareContains: rarePlan, miss: missPlan },
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
