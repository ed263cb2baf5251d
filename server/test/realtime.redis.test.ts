/**
 * With REDIS_URL, friend events and presence cross server processes (issue 3: "two server processes
 * on one Redis"). Redis at REDIS_TEST_URL (default redis://127.0.0.1:6379) is required: when it is
 * unreachable these tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { type Socket, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { Ack, FriendEventPayload } from '../../src/contracts/realtime.ts';
import type { AuthResponse } from '../../src/contracts/user.ts';
import { buildApp } from '../src/app.ts';
import {
  type Member,
  forEachDialect,
  friendAction,
  signupFields,
  signupMembers,
  uniqueUsername,
  useTestApp,
  describeWithRedis,
  REDIS_TEST_URL,
} from './helpers.ts';

const REDIS_URL = REDIS_TEST_URL;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const suite = await describeWithRedis('the cross-process realtime tests');

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

function connect(origin: string, token: string): Promise<Socket> {
  const socket = io(origin, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: { token },
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The next `event` on a socket, or a rejection naming it after `ms`. */
function nextEvent(socket: Socket, event: string, ms = 10_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

async function originOf(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** `node --import tsx server/src/main.ts` on a port of its own; resolves once it answers /healthz. */
async function startServer(
  env: Record<string, string>,
): Promise<{ origin: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`server did not listen within 30 s:\n${output}`)),
      30_000,
    );
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  child.stdout?.resume();
  const health = await fetch(`${origin}/healthz`);
  if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
  return { origin, stop };
}

async function signupOver(origin: string): Promise<{ id: string; token: string }> {
  const { payload, headers } = await signupFields({ username: uniqueUsername('x') });
  const response = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers,
    body: new Uint8Array(payload),
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 201)
    throw new Error(`signup answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as AuthResponse;
  return { id: body.user.id, token: body.token };
}

async function postOver(origin: string, token: string, action: string, body: object) {
  const response = await fetch(`${origin}/api/users/friends/${action}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

forEachDialect((dialect) => {
  suite('two apps in one process on one Redis and one database', () => {
    const t = useTestApp(dialect, { REDIS_URL });
    let second: FastifyInstance;
    let origin1 = '';
    let origin2 = '';
    beforeAll(async () => {
      second = await buildApp(t.config);
      origin1 = await originOf(t.app);
      origin2 = await originOf(second);
    });
    afterAll(async () => {
      await second.close();
    });

    it('delivers a request made through app 1 to the receiver’s socket on app 2', async () => {
      const [a, b] = (await signupMembers(t.app, 2)) as [Member, Member];
      const [socketA, socketB] = [await connect(origin1, a.token), await connect(origin2, b.token)];
      const received = [
        nextEvent(socketA, 'friend:request:created'),
        nextEvent(socketB, 'friend:request:created'),
      ];

      await friendAction(t.app, a, 'request', b);

      const expected: FriendEventPayload = {
        fromUserId: a.user.id,
        toUserId: b.user.id,
        pairKey: pairKey(a.user.id, b.user.id),
      };
      expect(await Promise.all(received)).toEqual([expected, expected]);
    });

    it('shows app 1 a member online who joined presence on app 2, and offline after leaving', async () => {
      const [b] = (await signupMembers(t.app, 1)) as [Member];
      const socketB = await connect(origin2, b.token);
      expect(await t.app.realtime.isOnline(b.user.id)).toBe(false);

      const joined = (await socketB
        .timeout(5_000)
        .emitWithAck('presence:join', { userId: b.user.id })) as Ack;

      expect(joined).toEqual({ ok: true });
      expect(await t.app.realtime.isOnline(b.user.id)).toBe(true);
      await socketB.timeout(5_000).emitWithAck('presence:leave');
      expect(await t.app.realtime.isOnline(b.user.id)).toBe(false);
    });
  });

  suite('two server processes on one Redis and one database', () => {
    const t = useTestApp(dialect);
    const servers: { origin: string; stop(): Promise<void> }[] = [];
    beforeAll(async () => {
      const env = {
        DATA_DIR: t.config.dataDir,
        STATIC_DIR: path.join(t.config.dataDir, 'no-static-build'),
        REDIS_URL,
        AUTH_RATE_LIMIT: '1000',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      };
      servers.push(await startServer(env));
      servers.push(await startServer(env));
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
    });

    it('delivers events between members connected to different processes, both ways', async () => {
      const [one, two] = servers as [(typeof servers)[0], (typeof servers)[0]];
      const a = await signupOver(one.origin);
      const b = await signupOver(two.origin);
      const [socketA, socketB] = [
        await connect(one.origin, a.token),
        await connect(two.origin, b.token),
      ];
      const requested = nextEvent(socketB, 'friend:request:created');

      expect(await postOver(one.origin, a.token, 'request', { toUserId: b.id })).toEqual({
        status: 200,
        body: { status: 'pending' },
      });
      expect(await requested).toEqual({
        fromUserId: a.id,
        toUserId: b.id,
        pairKey: pairKey(a.id, b.id),
      });

      const accepted = nextEvent(socketA, 'friend:accepted');
      expect((await postOver(two.origin, b.token, 'accept', { toUserId: a.id })).body).toEqual({
        status: 'friends',
      });
      expect(await accepted).toEqual({
        fromUserId: b.id,
        toUserId: a.id,
        pairKey: pairKey(a.id, b.id),
      });
    });
  });
});
