/**
 * How soon a friend request reaches the recipient's open tab: the time from the
 * POST /api/users/friends/request being sent (and from its response arriving) to the recipient's
 * socket receiving friend:request:created, with 10,000 other authenticated sockets connected (and
 * in presence), opened by load generators in processes of their own (bench/socket-crowd.ts, 2,500
 * sockets each). Reports p50/p99/max and each server node's resident memory (RSS) with every
 * socket connected. Goal (issue "Instant on a phone"): p99 ≤ 20 ms from the send, over two nodes
 * on PostgreSQL and Redis.
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
 * afterwards). BENCH_SOCKETS (default 10000) and BENCH_ROUNDS (default 300) change the sizes.
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
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
import type { CrowdOrders, CrowdReport } from './socket-crowd.ts';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const WARMUP = 20;
/** Members the other sockets belong to, several tabs each. */
const CROWD_MEMBERS = 200;
/** Sockets per load generator process. */
const PER_GENERATOR = 2_500;
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
for (let i = 0; i < CROWD_MEMBERS; i += 20)
  crowd.push(
    ...(await Promise.all(
      Array.from({ length: Math.min(20, CROWD_MEMBERS - i) }, (_, j) => signup(`crowd${i + j}`)),
    )),
  );
const sender = await signup('bench.sender');
const recipient = await signup('bench.recipient');

/** Starts a load generator with its sockets; answers once all are connected and in presence. */
function startGenerator(orders: CrowdOrders): Promise<ChildProcess> {
  const child = fork(path.join(import.meta.dirname, 'socket-crowd.ts'), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a load generator exited with ${code}`)));
    child.once('message', (report: CrowdReport) => {
      if ('error' in report) reject(new Error(`a load generator failed: ${report.error}`));
      else resolve(child);
    });
    child.send(orders);
  });
}

const connectStarted = performance.now();
const others = Array.from({ length: SOCKETS }, (_, i) => {
  const member = crowd[i % CROWD_MEMBERS] as (typeof crowd)[number];
  return { origin: node(i), token: member.token, userId: member.id };
});
const generators = await Promise.all(
  Array.from({ length: Math.ceil(SOCKETS / PER_GENERATOR) }, (_, g) =>
    startGenerator({ sockets: others.slice(g * PER_GENERATOR, (g + 1) * PER_GENERATOR) }),
  ),
);
const connectSeconds = (performance.now() - connectStarted) / 1000;
console.log(
  `${SOCKETS} other sockets connected and in presence in ${connectSeconds.toFixed(1)} s by ${generators.length} load generators`,
);
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

/** A process's resident memory in MB, from /proc (Linux). */
function rssMb(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}
const nodeRssMb = nodes.map((server) => rssMb(server.child.pid));

for (const socket of sockets) socket.disconnect();
for (const generator of generators) generator.send('stop');
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
console.log(
  `Server RSS with every socket connected: ${nodeRssMb.map((mb, i) => `node ${i + 1} ${mb.toFixed(0)} MB`).join(', ')}.`,
);

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
  nodeRssMb,
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
process.exit(0);
