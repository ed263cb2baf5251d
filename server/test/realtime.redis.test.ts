/**
 * With REDIS_URL, friend events and presence cross server processes (issue 3: "two server processes
 * on one Redis"). Redis at REDIS_TEST_URL (default redis://127.0.0.1:6379) is required: when it is
 * unreachable these tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { Ack, FriendEventPayload } from '../../src/contracts/realtime.ts';
import type { AuthResponse } from '../../src/contracts/user.ts';
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
import { startServerProcess } from './server-process.ts';
import { connected, useSecondNode, useSockets } from './sockets.ts';

const REDIS_URL = REDIS_TEST_URL;

const suite = await describeWithRedis('the cross-process realtime tests');

const openSocket = useSockets();

const connect = (origin: string, token: string): Promise<Socket> =>
  connected(openSocket(origin, { auth: { token } }));

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

/** The real server as a process of its own; resolves once it answers /healthz. */
async function startServer(
  env: Record<string, string>,
): Promise<{ origin: string; stop(): Promise<void> }> {
  const server = await startServerProcess(env);
  const stop = () => server.kill('SIGTERM');
  const health = await fetch(`${server.origin}/healthz`);
  if (health.status !== 200) {
    await stop();
    throw new Error(`/healthz answered ${health.status}`);
  }
  return { origin: server.origin, stop };
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
    const nodes = useSecondNode(t);

    it('delivers a request made through app 1 to the receiver’s socket on app 2', async () => {
      const [a, b] = (await signupMembers(t.app, 2)) as [Member, Member];
      const [socketA, socketB] = [
        await connect(nodes.origin1, a.token),
        await connect(nodes.origin2, b.token),
      ];
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
      const socketB = await connect(nodes.origin2, b.token);
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
        UPLOADS_AT_ONCE: '1000',
        UPLOADS_PER_HOUR: '1000000',
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
      expect((await postOver(two.origin, b.token, 'accept', { fromUserId: a.id })).body).toEqual({
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
