/**
 * GET /api/auth/me with a session against a bare Fastify route, each server in a process of its
 * own, alternated in one run: 3 rounds of 10 s each, the same autocannon settings for both.
 * `npx tsx bench/me.ts` (ME_ROUNDS, ME_SECONDS change the rounds and their length).
 * Goal: /api/auth/me reaches at least 60 % of the bare route's requests per second, both logging
 * requests at `info`.
 *
 * The bare route answers JSON of the same length as /me's answer, with Fastify's default request
 * logging at the same level (its two lines a request; Orbit writes one), so the comparison is of
 * the work /me does beyond the framework's own.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  CONNECTIONS,
  ROOT,
  freePort,
  loadWithoutErrors,
  median,
  signupBenchMember,
  table,
  writeReport,
  writeResult,
} from './common.ts';
import { startCompiledServer } from './compiled-server.ts';

const ROUNDS = Number(process.env.ME_ROUNDS ?? 3);
const SECONDS = Number(process.env.ME_SECONDS ?? 10);
const WARMUP_SECONDS = 3;
/** Both servers log at this level: `info`, as deploy/orbit.env ships (ME_LOG_LEVEL changes it). */
const LOG_LEVEL = process.env.ME_LOG_LEVEL ?? 'info';

const server = await startCompiledServer('orbit-bench-me-', LOG_LEVEL);
const { token } = await signupBenchMember(server.origin, 'bench.me', {
  firstName: 'Bench',
  lastName: 'Member',
});
const meUrl = `${server.origin}/api/auth/me`;
const headers = { authorization: `Bearer ${token}` };
const meBody = await (await fetch(meUrl, { headers })).text();
if (!meBody.includes('"bench.me"')) throw new Error(`/me answered ${meBody}`);

// The bare route in its own process, answering as many bytes of JSON as /me does.
const barePort = await freePort();
const padding = 'x'.repeat(
  Math.max(0, meBody.length - JSON.stringify({ user: null, p: '' }).length),
);
const bareSource = `
import Fastify from 'fastify';
const app = Fastify({ logger: { level: ${JSON.stringify(LOG_LEVEL)} } });
const body = { user: null, p: ${JSON.stringify(padding)} };
app.get('/bare', () => body);
await app.listen({ host: '127.0.0.1', port: ${barePort} });
`;
const bare = spawn(process.execPath, ['--input-type=module', '-e', bareSource], {
  cwd: ROOT,
  env: { ...process.env, NODE_ENV: 'production' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const bareExited = new Promise<void>((resolve) => bare.once('exit', () => resolve()));
const bareUrl = `http://127.0.0.1:${barePort}/bare`;
for (let tries = 0; ; tries++) {
  try {
    const body = await (await fetch(bareUrl)).text();
    if (body.length !== meBody.length)
      throw new Error(`bare answers ${body.length} bytes, /me ${meBody.length}`);
    break;
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('bare answers')) throw error;
    if (tries > 200) throw new Error('the bare server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The load runs on a worker thread so it shares no event loop with either server. */
const load = (url: string, seconds: number, extra: Record<string, string> = {}) =>
  loadWithoutErrors({ url, headers: extra, duration: seconds });

await load(bareUrl, WARMUP_SECONDS);
await load(meUrl, WARMUP_SECONDS, headers);
const rounds: { bare: number; me: number; meP99: number; bareP99: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so a drift of the machine does not favour one of them.
  const first = round % 2 === 0 ? 'bare' : 'me';
  const run = (which: string) =>
    which === 'bare' ? load(bareUrl, SECONDS) : load(meUrl, SECONDS, headers);
  const a = await run(first);
  const b = await run(first === 'bare' ? 'me' : 'bare');
  const [bareResult, meResult] = first === 'bare' ? [a, b] : [b, a];
  rounds.push({
    bare: bareResult.requests.average,
    me: meResult.requests.average,
    bareP99: bareResult.latency.p99,
    meP99: meResult.latency.p99,
  });
  console.log(
    `round ${round + 1}: /me ${meResult.requests.average.toFixed(0)} req/s, bare ${bareResult.requests.average.toFixed(0)} req/s`,
  );
}

bare.kill('SIGTERM');
await Promise.all([server.stop(), bareExited]);

const meMedian = median(rounds.map((r) => r.me));
const bareMedian = median(rounds.map((r) => r.bare));
const ratio = meMedian / bareMedian;
const rows = [
  ['round', '/api/auth/me req/s', 'bare req/s', 'ratio', '/me p99', 'bare p99'],
  ...rounds.map((r, i) => [
    String(i + 1),
    r.me.toFixed(0),
    r.bare.toFixed(0),
    `${((r.me / r.bare) * 100).toFixed(0)} %`,
    `${r.meP99} ms`,
    `${r.bareP99} ms`,
  ]),
  ['median', meMedian.toFixed(0), bareMedian.toFixed(0), `${(ratio * 100).toFixed(0)} %`, '', ''],
];
console.log(`\n${table(rows)}`);
console.log(
  `\n/api/auth/me reaches ${(ratio * 100).toFixed(0)} % of the bare route (goal: at least 60 % at info; both servers logged at ${LOG_LEVEL}).`,
);

const settings = { connections: CONNECTIONS, pipelining: 1, seconds: SECONDS, rounds: ROUNDS };
const file = writeResult('me', {
  settings,
  bodyBytes: meBody.length,
  rounds,
  median: { me: meMedian, bare: bareMedian },
  ratio,
});
const markdown = `# GET /api/auth/me against a bare Fastify route

\`npx tsx bench/me.ts\`, ${new Date().toISOString().slice(0, 10)}: each server in its own process
(Orbit as \`npm run serve\` runs it, build/server.mjs, in production mode on SQLite, with one member signed up; the bare
route answers ${meBody.length} bytes of JSON, as /me does), alternated ${ROUNDS} × ${SECONDS} s with
autocannon in a worker thread, ${CONNECTIONS} connections, no pipelining.

| round | /api/auth/me req/s | bare req/s | ratio | /me p99 | bare p99 |
|---|---|---|---|---|---|
${rows
  .slice(1)
  .map((row) => `| ${row.join(' | ')} |`)
  .join('\n')}

**/api/auth/me reaches ${(ratio * 100).toFixed(0)} % of the bare route** (goal: at least 60 % at info; both servers logged at ${LOG_LEVEL}).
`;
writeReport('me', markdown);
console.log(`Written to ${path.relative(process.cwd(), file)} and bench/results/me.md`);
