/**
 * Login latency (argon2id verify, over HTTP) and GET /api/auth/me throughput against a bare
 * Fastify route, measured in the same run. `npx tsx bench/login.ts`
 * Goal: /api/auth/me reaches at least half of the bare route's requests per second.
 */
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import Fastify from 'fastify';
import {
  CONNECTIONS,
  LOAD_SECONDS,
  LOAD_WORKERS,
  percentile,
  table,
  throughputRow,
  writeResult,
} from './common.ts';
import { BENCH_PASSWORD, signupBenchMember, startBenchApp } from './gallery-fixtures.ts';

const LOGINS = 50;
const WARMUP_LOGINS = 3;

const bench = await startBenchApp('login');
const { base } = bench;
// One member, signed up through the real endpoint.
await signupBenchMember(base, 'bench.member');

async function login(): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'bench.member', password: BENCH_PASSWORD, remember: false }),
  });
  const body = (await response.json()) as { token?: string };
  if (response.status !== 200 || !body.token) throw new Error(`login answered ${response.status}`);
  return body.token;
}

for (let i = 0; i < WARMUP_LOGINS; i++) await login();
const latencies: number[] = [];
let token = '';
for (let i = 0; i < LOGINS; i++) {
  const started = performance.now();
  token = await login();
  latencies.push(performance.now() - started);
}
latencies.sort((a, b) => a - b);
const loginStats = {
  n: LOGINS,
  p50: percentile(latencies, 50),
  p95: percentile(latencies, 95),
  p99: percentile(latencies, 99),
  max: latencies.at(-1) ?? Number.NaN,
};

// The same logger level as the app, so the comparison is of the work each route does.
const bare = Fastify({ logger: { level: 'warn' } });
bare.get('/', () => ({ ok: true }));
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareAddress = bare.server.address();
if (!bareAddress || typeof bareAddress === 'string')
  throw new Error('the bare app is not listening');

/** The load runs on a worker thread so it does not share the servers' event loop. */
async function load(url: string, headers: Record<string, string> = {}): Promise<Result> {
  const options = { url, headers, connections: CONNECTIONS, ...LOAD_WORKERS };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: LOAD_SECONDS });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result;
}

const bareResult = await load(`http://127.0.0.1:${bareAddress.port}/`);
const meResult = await load(`${base}/api/auth/me`, { authorization: `Bearer ${token}` });
await Promise.all([bench.close(), bare.close()]);

const ratio = meResult.requests.average / bareResult.requests.average;
const ms = (value: number) => `${value.toFixed(1)} ms`;
console.log(`\nLogin (POST /api/auth/login, argon2id verify), ${LOGINS} sequential requests`);
console.log(
  table([
    ['p50', 'p95', 'p99', 'max'],
    [ms(loginStats.p50), ms(loginStats.p95), ms(loginStats.p99), ms(loginStats.max)],
  ]),
);
console.log(`\nThroughput, ${CONNECTIONS} connections for ${LOAD_SECONDS} s each`);
const row = throughputRow;
console.log(
  table([
    ['route', 'req/s', 'latency p50', 'latency p99'],
    row('GET /api/auth/me (session)', meResult),
    row('bare Fastify GET /', bareResult),
  ]),
);
console.log(
  `\n/api/auth/me reaches ${(ratio * 100).toFixed(0)}% of the bare route (goal: at least 50%).`,
);

const file = writeResult('login', {
  login: loginStats,
  throughput: {
    connections: CONNECTIONS,
    durationSeconds: LOAD_SECONDS,
    me: {
      requestsPerSecond: meResult.requests.average,
      latencyP50: meResult.latency.p50,
      latencyP99: meResult.latency.p99,
    },
    bare: {
      requestsPerSecond: bareResult.requests.average,
      latencyP50: bareResult.latency.p50,
      latencyP99: bareResult.latency.p99,
    },
    ratio,
  },
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
