/**
 * How soon a friend request reaches the recipient's open tab: the time from the
 * POST /api/users/friends/request response arriving to the recipient's socket receiving
 * friend:request:created, with 2,000 other authenticated sockets connected (and in presence).
 *
 *   npx tsx bench/friend-event-latency.ts
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/friend-event-latency.ts   (through the
 *                                                       Redis streams adapter, one process)
 *   BENCH_NODES=2 BENCH_REDIS_URL=redis://127.0.0.1:6379 \
 *     BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/friend-event-latency.ts
 *       (two server processes on one PostgreSQL database and Redis: the sender on node 1, the
 *        recipient on node 2, the other sockets spread over both)
 *
 * The server runs as its own process (`node --import tsx server/src/main.ts`, SQLite in a temporary
 * data directory, or a fresh PostgreSQL database made next to BENCH_DATABASE_URL's and dropped
 * afterwards), so the client sockets here do not share its event loop. BENCH_SOCKETS (default
 * 2000) and BENCH_ROUNDS (default 300) change the sizes.
 */
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import {
  type RunningServer,
  joinPresence,
  openSocket,
  signupBenchMember,
  startServers,
  summary,
  table,
  writeResultEntry,
} from './common.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = 20;
const CROWD_MEMBERS = 20;
const REDIS_URL = process.env.BENCH_REDIS_URL;
const NODES = Number(process.env.BENCH_NODES ?? 1);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
if (NODES !== 1 && NODES !== 2) throw new Error('BENCH_NODES is 1 or 2');
if (NODES === 2 && (!REDIS_URL || !DATABASE_URL))
  throw new Error('BENCH_NODES=2 needs BENCH_REDIS_URL and BENCH_DATABASE_URL (PostgreSQL)');
const mode = NODES === 2 ? 'twoNodes' : REDIS_URL ? 'redis' : 'local';

// ---------------------------------------------------------------------------------------------
// The servers, as child processes

const servers = await startServers({
  count: NODES,
  databaseUrl: DATABASE_URL,
  redisUrl: REDIS_URL,
  dataPrefix: 'orbit-bench-events-',
});
const { nodes } = servers;
const node = (i: number) => (nodes[i % nodes.length] as RunningServer).origin;
const base = node(0);

// ---------------------------------------------------------------------------------------------
// Members and sockets

async function signup(username: string): Promise<{ id: string; token: string }> {
  const { token, userId } = await signupBenchMember(base, username);
  return { id: userId, token };
}

const sockets: Socket[] = [];
async function connect(member: { id: string; token: string }, origin = base): Promise<Socket> {
  const socket = await openSocket(origin, member.token, (opened) => sockets.push(opened));
  await joinPresence(socket, { userId: member.id });
  return socket;
}

const crowd: { id: string; token: string }[] = [];
for (let i = 0; i < CROWD_MEMBERS; i++) crowd.push(await signup(`crowd${i}`));
const sender = await signup('bench.sender');
const recipient = await signup('bench.recipient');

const connectStarted = performance.now();
for (let i = 0; i < SOCKETS; i += 100) {
  await Promise.all(
    Array.from({ length: Math.min(100, SOCKETS - i) }, (_, j) =>
      connect(crowd[(i + j) % CROWD_MEMBERS] as (typeof crowd)[number], node(i + j)),
    ),
  );
}
const connectSeconds = (performance.now() - connectStarted) / 1000;
console.log(`${SOCKETS} other sockets connected and in presence in ${connectSeconds.toFixed(1)} s`);
await connect(sender, node(0));
const recipientSocket = await connect(recipient, node(1));

// ---------------------------------------------------------------------------------------------
// Rounds: request (timed), then cancel to reset the pair

function post(action: string, body: object) {
  return fetch(`${base}/api/users/friends/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}
const next = (event: string) =>
  new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 10 s`)), 10_000);
    recipientSocket.once(event, () => {
      clearTimeout(timer);
      resolve(performance.now());
    });
  });

const afterResponse: number[] = [];
const fromSend: number[] = [];
const responseTimes: number[] = [];
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  const received = next('friend:request:created');
  const sent = performance.now();
  const response = await post('request', { toUserId: recipient.id });
  const body = (await response.json()) as { status?: string };
  const answered = performance.now();
  if (body.status !== 'pending') throw new Error(`request answered ${JSON.stringify(body)}`);
  const at = await received;
  if (round >= WARMUP) {
    afterResponse.push(at - answered);
    fromSend.push(at - sent);
    responseTimes.push(answered - sent);
  }
  const canceled = next('friend:request:canceled');
  await (await post('cancel', { toUserId: recipient.id })).arrayBuffer();
  await canceled;
}

for (const socket of sockets) socket.disconnect();
await servers.stop();

// ---------------------------------------------------------------------------------------------
// Report

/** The event usually arrives first (the server emits before it answers): then the wait is 0. */
const waitAfterResponse = summary(afterResponse.map((value) => Math.max(0, value)));
const signed = summary(afterResponse);
const endToEnd = summary(fromSend);
const responded = summary(responseTimes);
const beforeResponse = afterResponse.filter((value) => value <= 0).length;
const ms = (value: number) => `${value.toFixed(2)} ms`;
console.log(
  `\nfriend:request:created to the recipient, ${ROUNDS} rounds, ${SOCKETS} other sockets, ${
    {
      local: 'one process, no Redis',
      redis: 'through Redis',
      twoNodes: 'from node 1 to node 2 through Redis, PostgreSQL',
    }[mode]
  }`,
);
console.log(
  table([
    ['measure', 'p50', 'p99', 'max'],
    ['event after the POST response', ...[signed.p50, signed.p99, signed.max].map(ms)],
    [
      '  (0 when it came first)',
      ...[waitAfterResponse.p50, waitAfterResponse.p99, waitAfterResponse.max].map(ms),
    ],
    ['event after the POST was sent', ...[endToEnd.p50, endToEnd.p99, endToEnd.max].map(ms)],
    ['POST response time', ...[responded.p50, responded.p99, responded.max].map(ms)],
  ]),
);
console.log(`The event arrived before the response in ${beforeResponse} of ${ROUNDS} rounds.`);

const file = writeResultEntry('friend-event-latency', ['local', 'redis', 'twoNodes'], mode, {
  at: new Date().toISOString(),
  rounds: ROUNDS,
  otherSockets: SOCKETS,
  connectSeconds,
  eventAfterResponseMs: signed,
  waitAfterResponseMs: waitAfterResponse,
  eventAfterSendMs: endToEnd,
  responseMs: responded,
  eventBeforeResponse: beforeResponse,
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
process.exit(0);
