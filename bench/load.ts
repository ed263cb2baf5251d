/**
 * Many members at once against one real server: each signs in, keeps a socket open (in presence),
 * and then, every 5 to 15 seconds, does what members do: opens a profile, a gallery, searches,
 * sends or accepts a friend request, likes a photo, uploads a small one.
 *
 *   npx tsx bench/load.ts                                     SQLite, 500 members, 10 minutes
 *   LOAD_MEMBERS=100 LOAD_MINUTES=2 npx tsx bench/load.ts     smaller and shorter
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/load.ts
 *                                                             PostgreSQL (a fresh database on that
 *                                                             server, dropped afterwards)
 *   LOAD_NODES=2 BENCH_DATABASE_URL=… BENCH_REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/load.ts
 *                                                             two server processes sharing the
 *                                                             database and Redis, the members
 *                                                             split between them (BENCH_REDIS_URL
 *                                                             alone gives one node the same Redis)
 *
 * The server runs as its own process (`node --import tsx server/src/main.ts`, production mode), so
 * the members here do not share its event loop. Limits meant for attackers are raised for the run,
 * since every member comes from the one address of this machine: AUTH_RATE_LIMIT (logins) and
 * UPLOADS_PER_HOUR. Every 10 s the server's own /metrics (METRICS_TOKEN) gives its resident
 * memory, event-loop delay (prom-client's, reset at each scrape: p99 and max of those 10 s), CPU
 * time and open sockets, from every node. Members are signed up before the clock starts; the report counts errors (any
 * answer outside 2xx, a failed socket, a socket the server dropped) by reason, and p50/p99 per
 * action, into bench/results/load-<date>.md and .json.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import {
  BENCH_PASSWORD,
  RESULTS_DIR,
  type RunningServer,
  joinPresence,
  machine,
  median,
  openSocket,
  signupBenchMember,
  startServers,
  summary,
  table,
  writeReport,
} from './common.ts';

const MEMBERS = Number(process.env.LOAD_MEMBERS ?? 500);
const MINUTES = Number(process.env.LOAD_MINUTES ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const REDIS_URL = process.env.BENCH_REDIS_URL;
const NODES = Number(process.env.LOAD_NODES ?? 1);
if (!Number.isInteger(NODES) || NODES < 1) throw new Error('LOAD_NODES is a whole number ≥ 1');
if (NODES > 1 && (!REDIS_URL || !DATABASE_URL))
  throw new Error('LOAD_NODES above 1 needs BENCH_REDIS_URL and BENCH_DATABASE_URL (PostgreSQL)');
/** The report's file name ends with this when given (bench/load-nodes.ts names its runs). */
const REPORT_SUFFIX = process.env.LOAD_REPORT_SUFFIX;
/** Each member waits this long between two actions, uniformly at random. */
const THINK_MS = { min: 5_000, max: 15_000 };
/** Members start spread over this long, as a crowd arrives, not all in one millisecond. */
const RAMP_MS = Math.min(60_000, MINUTES * 60_000 * 0.25);
const SAMPLE_MS = 10_000;
const METRICS_TOKEN = 'load-bench-metrics-token';
const SIGNUP_BATCH = 10;

const RAISED_LIMITS = { AUTH_RATE_LIMIT: '1000000', UPLOADS_PER_HOUR: '1000000' };

// ---------------------------------------------------------------------------------------------
// The server

const servers = await startServers({
  count: NODES,
  databaseUrl: DATABASE_URL,
  redisUrl: REDIS_URL,
  env: { ...RAISED_LIMITS, METRICS_TOKEN },
  dataPrefix: 'orbit-bench-load-',
});
const origins = servers.nodes.map((node: RunningServer) => node.origin);
console.log(
  `${NODES === 1 ? 'Server' : `${NODES} servers`} at ${origins.join(', ')} on ${
    DATABASE_URL ? 'PostgreSQL' : 'SQLite'
  }${REDIS_URL ? ' and Redis' : ''}; raised for the run: ${Object.entries(RAISED_LIMITS)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ')}`,
);

// ---------------------------------------------------------------------------------------------
// Measuring

type Action =
  | 'login'
  | 'socket'
  | 'profile'
  | 'gallery'
  | 'search'
  | 'friend request'
  | 'incoming requests'
  | 'accept'
  | 'like'
  | 'upload';
const timings = new Map<Action, number[]>();
/** The same, counted only once every member is signed in and connected: the steady state. */
const steadyTimings = new Map<Action, number[]>();
let steady = false;

function timed(action: Action, started: number) {
  const took = performance.now() - started;
  for (const [map, wanted] of [
    [timings, true],
    [steadyTimings, steady],
  ] as const) {
    if (!wanted) continue;
    const list = map.get(action) ?? [];
    list.push(took);
    map.set(action, list);
  }
}
const errors = new Map<string, number>();
let finished = false;

function failed(action: Action | 'socket dropped', reason: string) {
  const key = `${action}: ${reason}`;
  errors.set(key, (errors.get(key) ?? 0) + 1);
}

/**
 * Answers the JSON body of a 2xx answer from `member`'s node, timed under `action`; anything else
 * counts as an error.
 */
async function call<T>(
  action: Action,
  member: Member,
  url: string,
  init: RequestInit = {},
): Promise<T | null> {
  const started = performance.now();
  try {
    const response = await fetch(`${member.origin}${url}`, init);
    const text = await response.text();
    if (response.status < 200 || response.status > 299) {
      let message = '';
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? '';
      } catch {
        message = text.slice(0, 80);
      }
      failed(action, `${response.status} ${message}`.trim());
      return null;
    }
    timed(action, started);
    return (text ? JSON.parse(text) : null) as T;
  } catch (error) {
    failed(action, (error as Error).cause ? String((error as Error).cause) : String(error));
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Members

interface Member {
  index: number;
  /** The node this member's browser talks to: members are dealt to the nodes in turn. */
  origin: string;
  username: string;
  id: string;
  token: string;
  socket: Socket | undefined;
}

const pictures = await Promise.all(
  Array.from({ length: 8 }, (_, i) =>
    sharp({
      create: {
        width: 480,
        height: 360,
        channels: 3,
        background: { r: 40 * i, g: 255 - 30 * i, b: 120 },
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .jpeg({ quality: 80 })
      .toBuffer(),
  ),
);

const signupStarted = performance.now();
const members: Member[] = [];
const stamp = Date.now().toString(36);
for (let i = 0; i < MEMBERS; i += SIGNUP_BATCH) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(SIGNUP_BATCH, MEMBERS - i) }, async (_, j) => {
      const index = i + j;
      const username = `load${stamp}${index}`;
      const origin = origins[index % NODES] as string;
      const { userId } = await signupBenchMember(origin, username, {
        firstName: `Member${index}`,
        lastName: `Load`,
      });
      return { index, origin, username, id: userId, token: '', socket: undefined } satisfies Member;
    }),
  );
  members.push(...batch);
}
console.log(
  `${MEMBERS} members signed up in ${((performance.now() - signupStarted) / 1000).toFixed(0)} s`,
);

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const others = (me: Member) => {
  for (;;) {
    const other = pick(members);
    if (other !== me) return other;
  }
};
/** Pairs asked already, either way: a member never asks twice nor asks back, as in the app. */
const asked = new Set<string>();
const pairOf = (a: Member, b: Member) =>
  a.index < b.index ? `${a.index}:${b.index}` : `${b.index}:${a.index}`;
/** Photos seen so far, to like. */
const photos: string[] = [];

const bearer = (member: Member) => ({ authorization: `Bearer ${member.token}` });
const json = (member: Member) => ({ ...bearer(member), 'content-type': 'application/json' });

async function login(member: Member): Promise<boolean> {
  const body = await call<{ token: string }>('login', member, '/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: member.username, password: BENCH_PASSWORD }),
  });
  if (!body) return false;
  member.token = body.token;
  return true;
}

async function connect(member: Member): Promise<void> {
  const started = performance.now();
  try {
    const socket = await openSocket(member.origin, member.token, (opened) => {
      member.socket = opened;
    });
    await joinPresence(socket, { userId: member.id, username: member.username });
    timed('socket', started);
    socket.on('disconnect', (reason) => {
      if (!finished) failed('socket dropped', reason);
    });
  } catch (error) {
    failed('socket', (error as Error).message);
  }
}

const ACTIONS: [weight: number, run: (member: Member) => Promise<unknown>][] = [
  [
    25,
    (me) =>
      call('profile', me, `/api/users/profile/${others(me).username}`, { headers: bearer(me) }),
  ],
  [
    25,
    async (me) => {
      const owner = others(me);
      const body = await call<{ images: { id: string }[] }>(
        'gallery',
        me,
        `/api/gallery?username=${owner.username}`,
        { headers: bearer(me) },
      );
      for (const image of body?.images.slice(0, 3) ?? []) photos.push(image.id);
      if (photos.length > 2_000) photos.splice(0, photos.length - 2_000);
    },
  ],
  [
    15,
    (me) =>
      call(
        'search',
        me,
        `/api/users/search?q=${encodeURIComponent(`member${Math.floor(Math.random() * 50)}`)}`,
        {
          headers: bearer(me),
        },
      ),
  ],
  [
    10,
    async (me) => {
      const other = others(me);
      if (asked.has(pairOf(me, other))) return;
      asked.add(pairOf(me, other));
      await call('friend request', me, '/api/users/friends/request', {
        method: 'POST',
        headers: json(me),
        body: JSON.stringify({ toUserId: other.id }),
      });
    },
  ],
  [
    10,
    async (me) => {
      const incoming = await call<{ results: { user: { id: string } }[] }>(
        'incoming requests',
        me,
        '/api/users/friends/incoming',
        { headers: bearer(me) },
      );
      const first = incoming?.results[0];
      if (!first) return;
      await call('accept', me, '/api/users/friends/accept', {
        method: 'POST',
        headers: json(me),
        body: JSON.stringify({ fromUserId: first.user.id }),
      });
    },
  ],
  [
    10,
    async (me) => {
      if (photos.length === 0) return;
      await call('like', me, `/api/gallery/${pick(photos)}`, {
        method: 'PATCH',
        headers: json(me),
        body: JSON.stringify({ likes: true }),
      });
    },
  ],
  [
    5,
    async (me) => {
      const form = new FormData();
      form.append(
        'image',
        new Blob([new Uint8Array(pick(pictures))], { type: 'image/jpeg' }),
        'photo.jpg',
      );
      const body = await call<{ image: { id: string } }>('upload', me, '/api/gallery', {
        method: 'POST',
        headers: bearer(me),
        body: form,
      });
      if (body) photos.push(body.image.id);
    },
  ],
];
const totalWeight = ACTIONS.reduce((sum, [weight]) => sum + weight, 0);
function nextAction(): (member: Member) => Promise<unknown> {
  let roll = Math.random() * totalWeight;
  for (const [weight, run] of ACTIONS) {
    roll -= weight;
    if (roll < 0) return run;
  }
  return (ACTIONS.at(-1) as (typeof ACTIONS)[number])[1];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const think = () => THINK_MS.min + Math.random() * (THINK_MS.max - THINK_MS.min);

// ---------------------------------------------------------------------------------------------
// The server's own figures, every 10 s

/** One scrape of every node: memory and sockets added up, the event loop of the slowest node. */
interface Sample {
  seconds: number;
  rssMb: number;
  loopP99Ms: number;
  loopMaxMs: number;
  sockets: number;
  /** CPU time every node has used since it started, added up. */
  cpuSeconds: number;
}
const samples: Sample[] = [];
const metric = (text: string, name: string) => {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : Number.NaN;
};
async function sample(startedAt: number) {
  try {
    const texts = await Promise.all(
      origins.map(async (origin) => {
        const response = await fetch(`${origin}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        return response.text();
      }),
    );
    const sum = (name: string, scale = 1) =>
      texts.reduce((total, text) => total + metric(text, name) * scale, 0);
    const most = (name: string, scale = 1) =>
      Math.max(...texts.map((text) => metric(text, name) * scale));
    samples.push({
      seconds: Math.round((performance.now() - startedAt) / 1000),
      rssMb: sum('orbit_process_resident_memory_bytes', 2 ** -20),
      loopP99Ms: most('orbit_nodejs_eventloop_lag_p99_seconds', 1000),
      loopMaxMs: most('orbit_nodejs_eventloop_lag_max_seconds', 1000),
      sockets: sum('orbit_sockets_open'),
      cpuSeconds: sum('orbit_process_cpu_seconds_total'),
    });
  } catch (error) {
    console.warn('metrics scrape failed', error);
  }
}

/**
 * Rows the database has written so far (inserted, updated and deleted), from PostgreSQL's own
 * statistics; null on SQLite.
 */
async function rowsWritten(): Promise<number | null> {
  if (!servers.databaseUrl) return null;
  const client = new pg.Client({ connectionString: servers.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ written: string }>(
      `SELECT tup_inserted + tup_updated + tup_deleted AS written
         FROM pg_stat_database WHERE datname = current_database()`,
    );
    return Number(rows[0]?.written);
  } finally {
    await client.end();
  }
}
/** The count when the steady part began. */
let writtenAtSteady: Promise<number | null> = Promise.resolve(null);

// ---------------------------------------------------------------------------------------------
// The run

const durationMs = MINUTES * 60_000;
const startedAt = performance.now();
const endsAt = startedAt + durationMs;
await sample(startedAt);
const sampler = setInterval(() => void sample(startedAt), SAMPLE_MS);
const progress = setInterval(() => {
  const done = [...timings.values()].reduce((sum, list) => sum + list.length, 0);
  const errorCount = [...errors.values()].reduce((sum, count) => sum + count, 0);
  const last = samples.at(-1);
  console.log(
    `${Math.round((performance.now() - startedAt) / 1000)} s: ${done} actions, ${errorCount} errors` +
      (last ? `, RSS ${last.rssMb.toFixed(0)} MB, ${last.sockets} sockets` : ''),
  );
}, 60_000);

let connectedMembers = 0;
let steadySeconds = Number.NaN;
async function live(member: Member) {
  await sleep((member.index / MEMBERS) * RAMP_MS);
  if (await login(member)) await connect(member);
  connectedMembers += 1;
  if (connectedMembers === MEMBERS) {
    steady = true;
    writtenAtSteady = rowsWritten();
    steadySeconds = (performance.now() - startedAt) / 1000;
    console.log(`Every member signed in and connected after ${steadySeconds.toFixed(0)} s`);
  }
  if (!member.token) return;
  for (;;) {
    await sleep(Math.min(think(), endsAt - performance.now()));
    if (performance.now() >= endsAt) return;
    await nextAction()(member);
  }
}

await Promise.all(members.map(live));
const elapsedSeconds = (performance.now() - startedAt) / 1000;
finished = true;
clearInterval(sampler);
clearInterval(progress);
await sample(startedAt);
// PostgreSQL's sessions report their counts within a second of their last transaction.
await sleep(2_000);
const [writtenBefore, writtenAfter] = [await writtenAtSteady, await rowsWritten()];
for (const member of members) member.socket?.disconnect();
await servers.stop();

// ---------------------------------------------------------------------------------------------
// Report

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '—');
const actionRows = [...timings.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([action, list]) => {
    const { p50, p99, max } = summary(list);
    const after = steadyTimings.get(action) ?? [];
    const calm = summary(after);
    return [
      action,
      String(list.length),
      ms(p50),
      ms(p99),
      ms(max),
      String(after.length),
      ms(calm.p50),
      ms(calm.p99),
    ];
  });
const errorCount = [...errors.values()].reduce((sum, count) => sum + count, 0);

/**
 * The steady part in a few figures: actions a second, the CPU the nodes used (in cores kept busy,
 * and per action), every action's p50 and p99 together, and the slowest node's event-loop p99.
 */
const steadySamples = samples.filter((s) => s.seconds >= steadySeconds);
const steadyFirst = steadySamples[0];
const steadyLast = steadySamples.at(-1);
const steadyWall = steadyFirst && steadyLast ? steadyLast.seconds - steadyFirst.seconds : 0;
const steadyAll = [...steadyTimings.values()].flat();
const steadyActionsInWindow =
  steadyAll.length * (steadyWall / Math.max(1, elapsedSeconds - steadySeconds));
const cpuSeconds = steadyFirst && steadyLast ? steadyLast.cpuSeconds - steadyFirst.cpuSeconds : 0;
const overall = {
  actionsPerSecond: steadyWall > 0 ? steadyActionsInWindow / steadyWall : Number.NaN,
  coresBusy: steadyWall > 0 ? cpuSeconds / steadyWall : Number.NaN,
  cpuMsPerAction:
    steadyActionsInWindow > 0 ? (cpuSeconds * 1000) / steadyActionsInWindow : Number.NaN,
  ...summary(steadyAll),
  /** Rows written per action, all of them (sessions, notifications, sweeps) counted; PostgreSQL only. */
  rowsWrittenPerAction:
    writtenBefore !== null && writtenAfter !== null && steadyAll.length > 0
      ? (writtenAfter - writtenBefore) / steadyAll.length
      : Number.NaN,
  loopP99Ms: median(steadySamples.map((s) => s.loopP99Ms)),
  rssMb: steadyLast?.rssMb ?? Number.NaN,
};
const overallRows = [
  ['actions per second', overall.actionsPerSecond.toFixed(1)],
  ['server CPU, cores busy', overall.coresBusy.toFixed(3)],
  ['server CPU per action', ms(overall.cpuMsPerAction)],
  ['database rows written per action', overall.rowsWrittenPerAction.toFixed(2)],
  ['all actions p50 / p99', `${ms(overall.p50)} / ${ms(overall.p99)}`],
  ['event-loop p99 (median of the scrapes, slowest node)', ms(overall.loopP99Ms)],
  ['RSS at the end, all nodes', `${overall.rssMb.toFixed(0)} MB`],
];
const errorRows = [...errors.entries()]
  .sort(([, a], [, b]) => b - a)
  .map(([reason, count]) => [String(count), reason]);
const sampleRows = samples.map((s) => [
  `${s.seconds} s`,
  `${s.rssMb.toFixed(0)} MB`,
  ms(s.loopP99Ms),
  ms(s.loopMaxMs),
  String(s.sockets),
  `${s.cpuSeconds.toFixed(1)} s`,
]);
const setup = `${MEMBERS} members, ${MINUTES} min (${elapsedSeconds.toFixed(0)} s), ${
  DATABASE_URL ? 'PostgreSQL' : 'SQLite'
}${REDIS_URL ? ' and Redis' : ''}, ${NODES === 1 ? 'one server process' : `${NODES} server processes`}`;

const actionTable = table([
  ['action', 'count', 'p50', 'p99', 'max', 'steady count', 'steady p50', 'steady p99'],
  ...actionRows,
]);
const sampleTable = table([
  ['time', 'RSS', 'event-loop p99', 'event-loop max', 'sockets', 'CPU used'],
  ...sampleRows,
]);
console.log(`\n${setup}\n\n${table(overallRows)}\n\n${actionTable}\n\nErrors: ${errorCount}`);
if (errorRows.length) console.log(table([['count', 'reason'], ...errorRows]));
console.log(`\n${sampleTable}`);

const date = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const name =
  `load-${date}${DATABASE_URL ? '-postgres' : ''}` + (REPORT_SUFFIX ? `-${REPORT_SUFFIX}` : '');
const mdRows = (rows: string[][]) => rows.map((row) => `| ${row.join(' | ')} |`).join('\n');
const markdown = `# Load: ${setup}

${new Date().toISOString()} on ${machine().cpu} (${machine().cores} cores), Node ${machine().node}.
Each member signs in, keeps a socket open in presence, and acts every ${THINK_MS.min / 1000}–${
  THINK_MS.max / 1000
} s (profile 25, gallery 25, search 15, friend request 10, accept 10, like 10, upload 5 of 100).
Raised for the run: ${Object.entries(RAISED_LIMITS)
  .map(([key, value]) => `${key}=${value}`)
  .join(', ')}.

## Steady state

| measure | value |
| --- | --- |
${mdRows(overallRows)}

## Actions

The whole run, then the steady part only: from the moment every member was signed in and connected (${steadySeconds.toFixed(
  0,
)} s) to the end.

| action | count | p50 | p99 | max | steady count | steady p50 | steady p99 |
| --- | --- | --- | --- | --- | --- | --- | --- |
${mdRows(actionRows)}

## Errors: ${errorCount}

${errorRows.length ? `| count | reason |\n| --- | --- |\n${mdRows(errorRows)}` : 'None.'}

## The server every ${SAMPLE_MS / 1000} s

Memory, sockets and CPU time added up over the nodes; the event loop of the slowest node.

| time | RSS | event-loop p99 | event-loop max | sockets | CPU used |
| --- | --- | --- | --- | --- | --- |
${mdRows(sampleRows)}
`;
const report = writeReport(name, markdown);
fs.writeFileSync(
  path.join(RESULTS_DIR, `${name}.json`),
  `${JSON.stringify(
    {
      at: new Date().toISOString(),
      machine: machine(),
      members: MEMBERS,
      minutes: MINUTES,
      database: DATABASE_URL ? 'postgres' : 'sqlite',
      redis: Boolean(REDIS_URL),
      nodes: NODES,
      steady: overall,
      steadyFromSeconds: steadySeconds,
      actions: Object.fromEntries(
        [...timings.entries()].map(([action, list]) => [
          action,
          { count: list.length, ...summary(list) },
        ]),
      ),
      steadyActions: Object.fromEntries(
        [...steadyTimings.entries()].map(([action, list]) => [
          action,
          { count: list.length, ...summary(list) },
        ]),
      ),
      errors: Object.fromEntries(errors),
      samples,
    },
    null,
    2,
  )}\n`,
);
console.log(`Written to ${path.relative(process.cwd(), report)}`);
process.exit(errorCount === 0 ? 0 : 1);
