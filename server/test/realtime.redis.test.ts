/**
 * With REDIS_URL, friend events and presence cross server processes (issue 3: "two server processes
 * on one Redis"). Redis at REDIS_TEST_URL (default redis://127.0.0.1:6379) is required: when it is
 * unreachable these tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import type { Socket } from 'socket.io-client';
import { expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { Ack, FriendEventPayload } from '../../src/contracts/realtime.ts';
import { friendAction, signupMembers, useTestApp, redisSuites, REDIS_TEST_URL } from './helpers.ts';
import { callServer, signupOnServer, useServerPair } from './server-process.ts';
import { connected, useSecondNode, useSockets, nextEvent } from './sockets.ts';

const REDIS_URL = REDIS_TEST_URL;

const suite = await redisSuites('the cross-process realtime tests');

const openSocket = useSockets();

const connect = (origin: string, token: string): Promise<Socket> =>
  connected(openSocket(origin, { auth: { token } }));

const friendCall = (
  origin: string,
  action: 'request' | 'accept',
  token: string,
  body: Record<string, string>,
) => callServer(origin, `/api/users/friends/${action}`, { method: 'POST', token, body });

const friendEvent = (fromUserId: string, toUserId: string): FriendEventPayload => ({
  fromUserId,
  toUserId,
  pairKey: pairKey(fromUserId, toUserId),
});

suite('two apps in one process on one Redis and one database', (dialect) => {
  const t = useTestApp(dialect, { REDIS_URL });
  const nodes = useSecondNode(t);

  it('delivers a request made through app 1 to the receiver’s socket on app 2', async () => {
    const [a, b] = await signupMembers(t.app, 2);
    const [socketA, socketB] = [
      await connect(nodes.origin1, a.token),
      await connect(nodes.origin2, b.token),
    ];
    const received = [
      nextEvent(socketA, 'friend:request:created', 10_000),
      nextEvent(socketB, 'friend:request:created', 10_000),
    ];

    await friendAction(t.app, a, 'request', b);

    const expected = friendEvent(a.user.id, b.user.id);
    expect(await Promise.all(received)).toEqual([expected, expected]);
  });

  it('shows app 1 a member online who joined presence on app 2, and offline after leaving', async () => {
    const [b] = await signupMembers(t.app, 1);
    const socketB = await connect(nodes.origin2, b.token);
    expect(await t.app.presence.isOnline(b.user.id)).toBe(false);

    const joined = (await socketB
      .timeout(5_000)
      .emitWithAck('presence:join', { userId: b.user.id })) as Ack;

    expect(joined).toEqual({ ok: true });
    expect(await t.app.presence.isOnline(b.user.id)).toBe(true);
    await socketB.timeout(5_000).emitWithAck('presence:leave');
    expect(await t.app.presence.isOnline(b.user.id)).toBe(false);
  });
});

suite('two server processes on one Redis and one database', (dialect) => {
  const t = useTestApp(dialect);
  const servers = useServerPair(t, { UPLOADS_AT_ONCE: '1000', UPLOADS_PER_HOUR: '1000000' });

  it('delivers events between members connected to different processes, both ways', async () => {
    const [one, two] = [servers.origin(0), servers.origin(1)];
    const a = await signupOnServer(one);
    const b = await signupOnServer(two);
    const [socketA, socketB] = [await connect(one, a.token), await connect(two, b.token)];
    const requested = nextEvent(socketB, 'friend:request:created', 10_000);

    expect(await friendCall(one, 'request', a.token, { toUserId: b.id })).toEqual({
      status: 200,
      body: { status: 'pending' },
    });
    expect(await requested).toEqual(friendEvent(a.id, b.id));

    const accepted = nextEvent(socketA, 'friend:accepted', 10_000);
    expect(await friendCall(two, 'accept', b.token, { fromUserId: a.id })).toEqual({
      status: 200,
      body: { status: 'friends' },
    });
    expect(await accepted).toEqual(friendEvent(b.id, a.id));
  });
});
