/** socket.io at /socket.io (docs/product.md "Realtime"): handshake, presence, friend events to both members. */
import type { Socket } from 'socket.io-client';
import { describe, expect, it, vi } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import { type Ack, FRIEND_EVENTS, type FriendEvent } from '../../src/contracts/realtime.ts';
import { hashToken } from '../src/lib/tokens.ts';
import { userRoom } from '../src/plugins/realtime.ts';
import {
  type FriendAction,
  type Member,
  ORIGIN,
  buildTestApp,
  forEachDialect,
  friendAction,
  signupMembers,
  useTestApp,
} from './helpers.ts';
import { type ClientOptions, connected, listen, useSockets, useListening } from './sockets.ts';

forEachDialect((dialect) => {
  const t = useTestApp(dialect);
  const openSocket = useSockets();
  const served = useListening(t);

  const open = (options: ClientOptions) => openSocket(served.url, options);
  /** Resolves with the socket once connected; rejects with the connect_error. */
  const connect = (options: ClientOptions) => connected(open(options));
  const connectAs = (member: Member) => connect({ auth: { token: member.token } });
  const members = async (count: number) => signupMembers(t.app, count);
  const join = (socket: Socket, userId: unknown) =>
    socket.timeout(5_000).emitWithAck('presence:join', { userId, username: 'x' }) as Promise<Ack>;
  /** Every event a socket receives, in order. */
  const record = (socket: Socket) => {
    const seen: [string, unknown][] = [];
    socket.onAny((event: string, payload: unknown) => seen.push([event, payload]));
    return seen;
  };
  const nextEvent = (socket: Socket, event: string) =>
    new Promise<unknown>((resolve) => socket.once(event, resolve));
  /**
   * A request and its acknowledgement on the same socket: the server handles a socket's messages
   * in order, so once this answers, every message sent before it has been handled.
   */
  const handled = (socket: Socket) =>
    socket.timeout(5_000).emitWithAck('image:leave', { imageId: 'none' }) as Promise<Ack>;
  /**
   * Sends an allowed friend request from `actor` to `member`, and answers the recipient socket's
   * record up to that request's friend:request:created, with what that event should be. Events on
   * one socket arrive in the order they were sent, so an event that should not have come, sent
   * before, would be in the record ahead of this marker.
   */
  const marker = async (seen: [string, unknown][], actor: Member, member: Member) => {
    const expected = {
      fromUserId: actor.user.id,
      toUserId: member.user.id,
      pairKey: pairKey(actor.user.id, member.user.id),
    };
    const isMarker = ([event, sent]: [string, unknown]) =>
      event === 'friend:request:created' &&
      (sent as { pairKey?: unknown } | null)?.pairKey === expected.pairKey;
    await friendAction(t.app, actor, 'request', member);
    await vi.waitFor(() => expect(seen.some(isMarker)).toBe(true));
    return { got: seen.slice(0, seen.findIndex(isMarker) + 1), expected };
  };

  describe('the handshake', () => {
    it('refuses a socket without a session with connect_error', async () => {
      await expect(connect({})).rejects.toThrow('unauthorized');
    });

    it('refuses a socket with a token that was never issued', async () => {
      await expect(connect({ auth: { token: 'not-a-real-token' } })).rejects.toThrow(
        'unauthorized',
      );
    });

    it('refuses a socket from a foreign Origin even with a valid cookie', async () => {
      const [a] = (await members(1)) as [Member];

      await expect(
        connect({ extraHeaders: { origin: 'https://evil.example', cookie: a.cookie } }),
      ).rejects.toThrow();
    });

    it('accepts the session cookie from an allowed Origin', async () => {
      const [a] = (await members(1)) as [Member];

      const socket = await connect({ extraHeaders: { origin: ORIGIN, cookie: a.cookie } });

      expect(socket.connected).toBe(true);
    });

    it('accepts the bearer token as auth.token', async () => {
      const [a] = (await members(1)) as [Member];

      expect((await connectAs(a)).connected).toBe(true);
    });

    it('accepts the bearer token as an Authorization header', async () => {
      const [a] = (await members(1)) as [Member];

      const socket = await connect({ extraHeaders: { authorization: `Bearer ${a.token}` } });

      expect(socket.connected).toBe(true);
    });
  });

  describe('presence', () => {
    it('refuses presence:join with another member’s id', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const socket = await connectAs(a);

      expect(await join(socket, b.user.id)).toEqual({
        ok: false,
        error: 'You can only join presence as yourself.',
      });
      expect(await t.app.presence.isOnline(b.user.id)).toBe(false);
      expect(await t.app.presence.isOnline(a.user.id)).toBe(false);
    });

    it('accepts presence:join with one’s own id and shows the member online', async () => {
      const [a] = (await members(1)) as [Member];
      const socket = await connectAs(a);

      expect(await join(socket, a.user.id)).toEqual({ ok: true });
      expect(await t.app.presence.isOnline(a.user.id)).toBe(true);
    });

    it('shows the member offline after presence:leave', async () => {
      const [a] = (await members(1)) as [Member];
      const socket = await connectAs(a);
      await join(socket, a.user.id);

      expect(await socket.timeout(5_000).emitWithAck('presence:leave')).toEqual({ ok: true });
      expect(await t.app.presence.isOnline(a.user.id)).toBe(false);
    });

    it('shows the member offline after their socket disconnects', async () => {
      const [a] = (await members(1)) as [Member];
      const socket = await connectAs(a);
      await join(socket, a.user.id);

      socket.disconnect();

      await vi.waitFor(async () => expect(await t.app.presence.isOnline(a.user.id)).toBe(false));
    });

    it('keeps the member online while another of their tabs is present', async () => {
      const [a] = (await members(1)) as [Member];
      const [first, second] = [await connectAs(a), await connectAs(a)];
      await join(first, a.user.id);
      await join(second, a.user.id);

      first.disconnect();
      // Wait for the server to have let the first tab go, so the answer below is about after it.
      await vi.waitFor(async () =>
        expect(await t.app.realtime.io.in(userRoom(a.user.id)).fetchSockets()).toHaveLength(1),
      );

      expect(await t.app.presence.isOnline(a.user.id)).toBe(true);
    });

    it('survives a presence:join whose acknowledgement is not a function', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const socket = await connectAs(a);

      socket.emit('presence:join', { userId: b.user.id }, 'not-a-function');
      socket.emit('presence:join', 'garbage', 42);
      expect(await handled(socket)).toEqual({ ok: true });

      expect(socket.connected).toBe(true);
      expect(await join(socket, a.user.id)).toEqual({ ok: true });
    });

    it('drops a socket that sends a message over the size limit', async () => {
      const [a] = (await members(1)) as [Member];
      const socket = await connectAs(a);
      const closed = nextEvent(socket, 'disconnect');

      socket.emit('presence:join', { userId: a.user.id, username: 'x'.repeat(64 * 1024) });

      expect(await closed).toBe('transport close');
    });
  });

  describe('room payloads', () => {
    it.each([
      ['gallery:join', undefined],
      ['gallery:join', { ownerId: '' }],
      ['gallery:join', { ownerId: 'x'.repeat(101) }],
      ['gallery:join', { owner: 'someone' }],
      ['image:join', { imageId: 42 }],
      ['image:join', 'an image'],
    ] as const)('answers %s with %j by naming what is missing', async (event, payload) => {
      const [a] = (await members(1)) as [Member];
      const socket = await connectAs(a);

      const ack = (await socket
        .timeout(5_000)
        .emitWithAck(event as 'gallery:join', payload)) as unknown;

      expect(ack).toEqual({ ok: false, error: 'Name the gallery or image to watch.' });
    });

    it('answers a well-formed gallery:join', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const socket = await connectAs(a);

      const ack = (await socket
        .timeout(5_000)
        .emitWithAck('gallery:join', { ownerId: b.user.id })) as unknown;

      expect(ack).toEqual({ ok: true, online: false });
    });
  });

  describe('friend events', () => {
    /** The calls that lead up to each event, then the call that makes it: [actor, action, other]. */
    const STEPS: Record<
      FriendEvent,
      { before: [0 | 1, FriendAction][]; make: [0 | 1, FriendAction] }
    > = {
      'friend:request:created': { before: [], make: [0, 'request'] },
      'friend:request:canceled': { before: [[0, 'request']], make: [0, 'cancel'] },
      'friend:accepted': { before: [[0, 'request']], make: [1, 'accept'] },
      'friend:declined': { before: [[0, 'request']], make: [1, 'decline'] },
      'friend:removed': {
        before: [
          [0, 'request'],
          [1, 'accept'],
        ],
        make: [0, 'unfriend'],
      },
    };

    it.each(FRIEND_EVENTS)(
      'delivers %s to both members with {fromUserId, toUserId, pairKey}',
      async (event) => {
        const pair = (await members(2)) as [Member, Member];
        const step = STEPS[event];
        for (const [who, action] of step.before)
          await friendAction(t.app, pair[who], action, pair[1 - who] as Member);
        const [socketA, socketB] = [await connectAs(pair[0]), await connectAs(pair[1])];
        const received = [nextEvent(socketA, event), nextEvent(socketB, event)];
        const [who, action] = step.make;
        const actor = pair[who];
        const other = pair[1 - who] as Member;

        await friendAction(t.app, actor, action, other);

        const expected = {
          fromUserId: actor.user.id,
          toUserId: other.user.id,
          pairKey: pairKey(actor.user.id, other.user.id),
        };
        expect(await Promise.all(received)).toEqual([expected, expected]);
      },
    );

    it('delivers nothing to a third member’s socket', async () => {
      const [a, b, c] = (await members(3)) as [Member, Member, Member];
      const [socketB, socketC] = [await connectAs(b), await connectAs(c)];
      const seenByC = record(socketC);
      const delivered = nextEvent(socketB, 'friend:accepted');

      await friendAction(t.app, a, 'request', b);
      await friendAction(t.app, b, 'accept', a);
      await delivered;

      const { got, expected } = await marker(seenByC, a, c);
      expect(got).toEqual([['friend:request:created', expected]]);
    });

    it('delivers an event once to a member with a socket in each of two tabs', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const tabs = [await connectAs(b), await connectAs(b)];
      const seen = tabs.map(record);

      await friendAction(t.app, a, 'request', b);
      // The cancel comes after on each socket: a second copy of the request would come before it.
      const canceled = tabs.map((tab) => nextEvent(tab, 'friend:request:canceled'));
      await friendAction(t.app, a, 'cancel', b);
      await Promise.all(canceled);

      // Each tab also hears of the new notification; the friend event itself arrives once.
      const friendEvents = seen.map((list) =>
        list.map(([event]) => event).filter((event) => event.startsWith('friend:')),
      );
      expect(friendEvents).toEqual([
        ['friend:request:created', 'friend:request:canceled'],
        ['friend:request:created', 'friend:request:canceled'],
      ]);
    });

    it('keeps another member’s events from a socket that asks to join their rooms', async () => {
      const [a, b, c] = (await members(3)) as [Member, Member, Member];
      const spy = await connectAs(c);
      const seenBySpy = record(spy);
      const room = `user:${b.user.id}`;
      for (const [event, payload] of [
        ['join', room],
        ['join', { room }],
        ['subscribe', room],
        ['presence:join', { userId: b.user.id }],
        ['gallery:join', { ownerId: b.user.id }],
        ['image:join', { imageId: room }],
      ] as const) {
        spy.emit(event as 'presence:join', payload);
      }
      await handled(spy);
      const socketB = await connectAs(b);
      const delivered = nextEvent(socketB, 'friend:request:created');

      await friendAction(t.app, a, 'request', b);
      await delivered;

      const { got, expected } = await marker(seenBySpy, a, c);
      expect(got).toEqual([['friend:request:created', expected]]);
      expect(spy.connected).toBe(true);
    });
  });

  describe('the end of a session', () => {
    /** How late after its session ends a socket may still be open, on a busy machine. */
    const BOUND_MS = 2_000;

    it('disconnects the socket when its session ends, and keeps a live session’s socket', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const endsAt = Date.now() + 1_500;
      await t.app.db
        .updateTable('sessions')
        .set({ expires_at: new Date(endsAt).toISOString() })
        .where('id', '=', hashToken(a.token))
        .execute();
      const expiring = await connectAs(a);
      const live = await connectAs(b);
      const ended = new Promise<{ reason: string; at: number }>((resolve) =>
        expiring.once('disconnect', (reason) => resolve({ reason, at: Date.now() })),
      );

      const outcome = await Promise.race([
        ended,
        new Promise<null>((resolve) =>
          setTimeout(() => resolve(null), endsAt + BOUND_MS - Date.now()),
        ),
      ]);

      expect(outcome?.reason).toBe('io server disconnect');
      expect(outcome?.at).toBeGreaterThanOrEqual(endsAt);
      expect(live.connected).toBe(true);
      await expect(handled(live)).resolves.toEqual({ ok: true });
    });
  });

  describe('closing the server', () => {
    it('disconnects the sockets still open instead of waiting for them to leave', async () => {
      const own = await buildTestApp({ dialect });
      const ownUrl = await listen(own.app);
      const [a] = await signupMembers(own.app, 1);
      const socket = await connected(openSocket(ownUrl, { auth: { token: a.token } }));

      const closed = await Promise.race([
        own.close().then(() => 'closed'),
        new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5_000)),
      ]);

      expect(closed).toBe('closed');
      expect(socket.connected).toBe(false);
    });
  });
});
