/**
 * A logout on one node against the other node's session cache (docs/decisions.md "Session
 * cache"): two server processes on one PostgreSQL database and one Redis, a member signed in on
 * both, node 2's cache warm. Each round logs out on node 1 and, the moment its answer arrives,
 * asks node 2 with the same token. Reports how long the logout took and how often node 2 still
 * served the session after the logout had answered (the promise: never).
 *
 *   npx tsx bench/logout-nodes.ts                  200 rounds on postgres://postgres@127.0.0.1:5432/postgres
 *   LOGOUT_ROUNDS=500 BENCH_DATABASE_URL=… REDIS_URL=… npx tsx bench/logout-nodes.ts
 */
import {
  BENCH_PASSWORD,
  type RunningServer,
  machine,
  signupBenchMember,
  startServers,
  summary,
  table,
  writeReport,
  writeResult,
} from './common.ts';

const ROUNDS = Number(process.env.LOGOUT_ROUNDS ?? 200);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const servers = await startServers({
  count: 2,
  databaseUrl: PG_URL,
  redisUrl: REDIS_URL,
  dataPrefix: 'orbit-bench-logout-',
});
const [node1, node2] = servers.nodes as [RunningServer, RunningServer];

try {
  await signupBenchMember(node1.origin, 'bench.logout');
  const me = async (origin: string, token: string) => {
    const response = await fetch(`${origin}/api/auth/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { user: unknown };
    return body.user !== null;
  };
  const login = async () => {
    const response = await fetch(`${node1.origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: node1.origin },
      body: JSON.stringify({ identifier: 'bench.logout', password: BENCH_PASSWORD }),
    });
    const { token } = (await response.json()) as { token?: string };
    if (!token) throw new Error(`login answered ${response.status}`);
    return token;
  };

  const logoutMs: number[] = [];
  let servedAfter = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const token = await login();
    // Node 2 remembers the session: two reads, the second from its cache.
    if (!(await me(node2.origin, token)) || !(await me(node2.origin, token)))
      throw new Error('node 2 does not know the new session');
    const started = performance.now();
    const response = await fetch(`${node1.origin}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, origin: node1.origin },
    });
    logoutMs.push(performance.now() - started);
    if (!response.ok) throw new Error(`logout answered ${response.status}`);
    if (await me(node2.origin, token)) servedAfter++;
  }

  const logout = summary(logoutMs);
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const { cpu, cores, node } = machine();
  const report = [
    '# Logout across two nodes',
    '',
    `\`npx tsx bench/logout-nodes.ts\`: ${ROUNDS} rounds on ${new Date().toISOString().slice(0, 10)}, ${cpu} (${cores} cores), Node ${node}. Two server processes on one PostgreSQL database and one Redis; each round signs in, warms node 2's session cache, logs out on node 1 and asks node 2 the moment the logout answers.`,
    '',
    table([
      ['measure', 'value'],
      ['logout p50 / p99 / max', `${ms(logout.p50)} / ${ms(logout.p99)} / ${ms(logout.max)}`],
      ['node 2 served the session after the logout answered', `${servedAfter} of ${ROUNDS}`],
    ]),
    '',
  ].join('\n');
  console.log(report);
  writeResult('logout-nodes', { rounds: ROUNDS, logoutMs: logout, servedAfter });
  writeReport('logout-nodes', report);
} finally {
  await servers.stop();
}
