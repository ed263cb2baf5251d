/**
 * The `/relay` socket.io namespace that push-relay connects to (issue 8): the shared secret, friend
 * events with the recipient's devices, catch-up after a restart, and gone devices.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { RelayCatchUpAnswer, RelayEvent } from '../../src/contracts/push.ts';
import type { Ack } from '../../src/contracts/realtime.ts';
import { buildApp } from '../src/app.ts';
import {
  type Member,
  asBearer,
  forEachDialect,
  friendAction,
  p256PublicKey,
  pushRowsOf,
  signupMembers,
  subscribeDevice,
  useTestApp,
  getMe,
} from './helpers.ts';
import { describeTwoNodes } from './live-app.ts';
import { connected, listen, useSockets } from './sockets.ts';
import { RELAY_SECRET } from './push-endpoints.ts';

/** Where the test devices (newDevice) live: a self-hosted push service the server allows. */
const DEVICE_HOST = 'push.example.test';

const twoNodes = await describeTwoNodes('the cross-node relay tests', 'relay-namespace', {
  RELAY_SECRET,
  PUSH_ALLOWED_HOSTS: DEVICE_HOST,
});

const openSocket = useSockets();

const open = (url: string, auth: Record<string, unknown>): Promise<Socket> =>
  connected(openSocket(url, { auth }));

const connectRelay = (origin: string, auth: Record<string, unknown> = {}) =>
  open(`${origin}/relay`, { secret: RELAY_SECRET, vapidPublicKey: p256PublicKey(), ...auth });

/** Every relay:event a relay socket receives, acknowledged as push-relay does. */
function collectEvents(relay: Socket): RelayEvent[] {
  const seen: RelayEvent[] = [];
  relay.on('relay:event', (event: RelayEvent, ack: () => void) => {
    seen.push(event);
    ack();
  });
  return seen;
}

/** Resolves once `events` holds an event matching `match`, or rejects after `ms`. */
async function eventuallyFind(
  events: RelayEvent[],
  match: (event: RelayEvent) => boolean,
  ms = 5_000,
): Promise<RelayEvent> {
  const until = Date.now() + ms;
  for (;;) {
    const found = events.find(match);
    if (found) return found;
    if (Date.now() > until) throw new Error(`no matching relay:event within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const catchUp = (relay: Socket, request: unknown) =>
  relay.timeout(5_000).emitWithAck('relay:catch-up', request) as Promise<RelayCatchUpAnswer>;

/**
 * A request and its acknowledgement on the same socket: the server handles a socket's messages in
 * order, so once this answers, every message sent before it has been handled.
 */
const handled = (socket: Socket) =>
  socket.timeout(5_000).emitWithAck('image:leave', { imageId: 'none' }) as Promise<Ack>;

forEachDialect((dialect) => {
  describe('with RELAY_SECRET set', () => {
    const t = useTestApp(dialect, { RELAY_SECRET, PUSH_ALLOWED_HOSTS: DEVICE_HOST });
    let origin = '';
    beforeAll(async () => {
      origin = await listen(t.app);
    });

    const members = async (count: number) => signupMembers(t.app, count);
    const latestId = async () => {
      const row = await t.app.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('latest'))
        .executeTakeFirst();
      return Number(row?.latest ?? 0);
    };
    const notificationId = async (recipient: Member, type: string) => {
      const row = await t.app.db
        .selectFrom('notifications')
        .select('id')
        .where('recipient_id', '=', recipient.user.id)
        .where('type', '=', type)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return row.id;
    };

    describe('the handshake', () => {
      it('lets in a relay with the secret and no member session', async () => {
        const relay = await connectRelay(origin);
        expect(relay.connected).toBe(true);
      });

      it('refuses a wrong secret with connect_error', async () => {
        await expect(connectRelay(origin, { secret: `${RELAY_SECRET}-not` })).rejects.toThrow(
          'unauthorized',
        );
      });

      it('refuses a missing secret, even with a member’s valid token', async () => {
        const [a] = (await members(1)) as [Member];
        await expect(
          open(`${origin}/relay`, { token: a.token, vapidPublicKey: p256PublicKey() }),
        ).rejects.toThrow('unauthorized');
      });

      it('refuses a secret that is not a string', async () => {
        await expect(connectRelay(origin, { secret: { length: 1 } })).rejects.toThrow(
          'unauthorized',
        );
      });

      it('refuses a VAPID key that is not a P-256 point', async () => {
        await expect(
          connectRelay(origin, { vapidPublicKey: Buffer.alloc(65, 4).toString('base64url') }),
        ).rejects.toThrow('vapidPublicKey');
      });

      it('still refuses members on the default namespace without a session', async () => {
        await expect(open(origin, { secret: RELAY_SECRET })).rejects.toThrow('unauthorized');
      });
    });

    describe('relay:event', () => {
      it('sends a friend request with the actor, the unread count and every device of the recipient', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        const phone = await subscribeDevice(t.app, b);
        const laptop = await subscribeDevice(t.app, b);
        await subscribeDevice(t.app, a);
        const relay = await connectRelay(origin);
        const events = collectEvents(relay);

        await friendAction(t.app, a, 'request', b);

        const event = await eventuallyFind(events, (e) => e.recipientId === b.user.id);
        const id = await notificationId(b, 'friend_request');
        expect(event).toEqual({
          recipientId: b.user.id,
          subscriptions: [phone, laptop],
          payload: {
            id,
            kind: 'friend_request',
            requestId: pairKey(a.user.id, b.user.id),
            actor: { id: a.user.id, username: a.username, profileImage: a.user.profileImage },
            url: `/profile/${a.username}`,
            unread: 2,
            createdAt: expect.any(String) as string,
          },
        } satisfies RelayEvent);
        expect(a.user.profileImage).toMatch(/^\/uploads\//);
      });

      it('sends the acceptance to the member who asked', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        const device = await subscribeDevice(t.app, a);
        const relay = await connectRelay(origin);
        const events = collectEvents(relay);
        await friendAction(t.app, a, 'request', b);

        await friendAction(t.app, b, 'accept', a);

        const event = await eventuallyFind(events, (e) => e.recipientId === a.user.id);
        expect(event.payload).toMatchObject({
          id: await notificationId(a, 'follow'),
          kind: 'friend_accepted',
          requestId: pairKey(a.user.id, b.user.id),
          actor: { id: b.user.id, username: b.username },
          url: `/profile/${b.username}`,
          unread: 2,
        });
        expect(event.subscriptions).toEqual([device]);
      });

      it('sends no devices for a recipient with an open tab', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        await subscribeDevice(t.app, b);
        const tab = await open(origin, { token: b.token });
        const joined = (await tab
          .timeout(5_000)
          .emitWithAck('presence:join', { userId: b.user.id })) as Ack;
        expect(joined).toEqual({ ok: true });
        const relay = await connectRelay(origin);
        const events = collectEvents(relay);

        await friendAction(t.app, a, 'request', b);

        const event = await eventuallyFind(events, (e) => e.recipientId === b.user.id);
        expect(event.subscriptions).toEqual([]);
        expect(event.payload.kind).toBe('friend_request');
      });

      it('sends the devices again once the recipient’s last tab has closed', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        const device = await subscribeDevice(t.app, b);
        const tab = await open(origin, { token: b.token });
        await tab.timeout(5_000).emitWithAck('presence:join', { userId: b.user.id });
        tab.disconnect();
        await vi.waitFor(async () => expect(await t.app.presence.isOnline(b.user.id)).toBe(false));
        const relay = await connectRelay(origin);
        const events = collectEvents(relay);

        await friendAction(t.app, a, 'request', b);

        const event = await eventuallyFind(events, (e) => e.recipientId === b.user.id);
        expect(event.subscriptions).toEqual([device]);
      });

      it('sends an event with no devices for a member who never turned push on', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        const relay = await connectRelay(origin);
        const events = collectEvents(relay);

        await friendAction(t.app, a, 'request', b);

        const event = await eventuallyFind(events, (e) => e.recipientId === b.user.id);
        expect(event.subscriptions).toEqual([]);
      });

      it('sends nothing for a cancelled request, a decline or an unfriend', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        const relay = await connectRelay(origin);
        const events = collectEvents(relay);
        await friendAction(t.app, a, 'request', b);
        await eventuallyFind(events, (e) => e.recipientId === b.user.id);

        await friendAction(t.app, a, 'cancel', b);
        await friendAction(t.app, a, 'request', b);
        await friendAction(t.app, b, 'decline', a);
        // An event that is sent, after: events on one socket keep their order, so one for the
        // cancel or the decline would come before it.
        await friendAction(t.app, b, 'request', a);
        await eventuallyFind(events, (e) => e.recipientId === a.user.id);

        expect(events.map((e) => [e.recipientId, e.payload.kind])).toEqual([
          [b.user.id, 'friend_request'],
          [b.user.id, 'friend_request'],
          [a.user.id, 'friend_request'],
        ]);
      });
    });

    describe('relay:catch-up', () => {
      it('answers no events and the newest id when the relay has never run (after: null)', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        await friendAction(t.app, a, 'request', b);
        const relay = await connectRelay(origin);

        expect(await catchUp(relay, { after: null, limit: 100 })).toEqual({
          events: [],
          latest: await latestId(),
        });
      });

      it('answers the friend events after an id, oldest first, recomputed now', async () => {
        const [a, b, c] = (await members(3)) as [Member, Member, Member];
        const relay = await connectRelay(origin);
        const before = await latestId();
        await friendAction(t.app, a, 'request', b);
        await friendAction(t.app, c, 'request', b);
        const device = await subscribeDevice(t.app, b);

        const answer = await catchUp(relay, { after: before, limit: 100 });

        const mine = answer.events.filter((e) => e.recipientId === b.user.id);
        expect(mine.map((e) => e.payload.actor.username)).toEqual([a.username, c.username]);
        expect(mine.map((e) => e.subscriptions)).toEqual([[device], [device]]);
        expect(mine.map((e) => e.payload.unread)).toEqual([3, 3]);
        const ids = answer.events.map((e) => e.payload.id);
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        expect(ids.every((id) => id > before && id <= answer.latest)).toBe(true);
        expect(answer.latest).toBe(await latestId());
      });

      it('leaves out notifications that are not friend events, and friend requests already answered', async () => {
        const [a, b] = (await members(2)) as [Member, Member];
        const relay = await connectRelay(origin);
        const before = await latestId();
        await friendAction(t.app, a, 'request', b);
        await friendAction(t.app, b, 'accept', a);

        const answer = await catchUp(relay, { after: before, limit: 100 });

        expect(answer.events.map((e) => [e.recipientId, e.payload.kind])).toEqual([
          [a.user.id, 'friend_accepted'],
        ]);
      });

      it('answers at most `limit` events and continues after the last one', async () => {
        const [b, ...askers] = await members(4);
        const relay = await connectRelay(origin);
        const before = await latestId();
        for (const asker of askers) await friendAction(t.app, asker, 'request', b as Member);

        const first = await catchUp(relay, { after: before, limit: 2 });
        const last = first.events.at(-1)?.payload.id ?? 0;
        const rest = await catchUp(relay, { after: last, limit: 2 });

        expect(first.events).toHaveLength(2);
        expect(rest.events).toHaveLength(1);
        expect([...first.events, ...rest.events].map((e) => e.payload.actor.username)).toEqual(
          askers.map((asker) => asker.username),
        );
      });

      it('answers nothing after the newest id', async () => {
        const relay = await connectRelay(origin);
        const latest = await latestId();
        expect(await catchUp(relay, { after: latest, limit: 10 })).toEqual({ events: [], latest });
      });

      it.each([
        ['no request at all', undefined],
        ['a negative id', { after: -1, limit: 10 }],
        ['an id as text', { after: '5', limit: 10 }],
        ['no limit', { after: 0 }],
        ['a zero limit', { after: 0, limit: 0 }],
      ])('answers an error for %s, and the relay stays connected', async (_, request) => {
        const relay = await connectRelay(origin);

        const answer = await catchUp(relay, request);

        expect(answer).toMatchObject({ events: [], error: expect.any(String) as string });
        expect(relay.connected).toBe(true);
      });

      it('survives a catch-up without an acknowledgement', async () => {
        const relay = await connectRelay(origin);
        relay.emit('relay:catch-up', { after: 0, limit: 5 });
        relay.emit('relay:catch-up', 'nonsense');
        // Answered after the two above were taken in, on the same socket.
        expect(await catchUp(relay, { after: null, limit: 1 })).toMatchObject({ events: [] });
        expect(relay.connected).toBe(true);
      });
    });

    describe('relay:subscription-gone', () => {
      it('deletes that device, whoever it belongs to, and keeps the others', async () => {
        const [b] = (await members(1)) as [Member];
        const gone = await subscribeDevice(t.app, b);
        const kept = await subscribeDevice(t.app, b);
        const relay = await connectRelay(origin);

        const result: unknown = await relay
          .timeout(5_000)
          .emitWithAck('relay:subscription-gone', { endpoint: gone.endpoint });

        expect(result).toBeUndefined();
        expect((await pushRowsOf(t.app, b.user.id)).map((row) => row.endpoint)).toEqual([
          kept.endpoint,
        ]);
      });

      it('answers an error for a malformed request and deletes nothing', async () => {
        const [b] = (await members(1)) as [Member];
        await subscribeDevice(t.app, b);
        const relay = await connectRelay(origin);

        for (const request of [undefined, {}, { endpoint: 42 }, { endpoint: '' }]) {
          expect(
            await relay.timeout(5_000).emitWithAck('relay:subscription-gone', request),
          ).toMatchObject({ error: expect.any(String) as string });
        }
        relay.emit('relay:subscription-gone', { endpoint: 'x' });
        // Answered after the one above was taken in, on the same socket.
        expect(
          await relay.timeout(5_000).emitWithAck('relay:subscription-gone', { endpoint: 'y' }),
        ).toBeUndefined();

        expect(relay.connected).toBe(true);
        expect(await pushRowsOf(t.app, b.user.id)).toHaveLength(1);
      });

      it('is not open to members on the default namespace', async () => {
        const [b] = (await members(1)) as [Member];
        const device = await subscribeDevice(t.app, b);
        const tab = await open(origin, { token: b.token });

        tab.emit('relay:subscription-gone', { endpoint: device.endpoint });
        expect(await handled(tab)).toEqual({ ok: true });

        expect(await pushRowsOf(t.app, b.user.id)).toHaveLength(1);
      });
    });

    it('keeps the key the relay brought for GET /api/push/vapid-public-key', async () => {
      const key = p256PublicKey();
      await connectRelay(origin, { vapidPublicKey: key });

      const response = await t.app.inject({ method: 'GET', url: '/api/push/vapid-public-key' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ publicKey: key });
    });
  });

  describe('without RELAY_SECRET', () => {
    const t = useTestApp(dialect);
    let origin = '';
    beforeAll(async () => {
      origin = await listen(t.app);
    });

    it('refuses every relay, whatever secret it brings', async () => {
      await expect(connectRelay(origin)).rejects.toThrow('RELAY_SECRET');
      await expect(connectRelay(origin, { secret: '' })).rejects.toThrow('RELAY_SECRET');
    });

    it('still lets members in on the default namespace', async () => {
      const [a] = await signupMembers(t.app, 1);
      const tab = await open(origin, { token: a.token });
      expect(tab.connected).toBe(true);
      expect((await getMe(t.app, asBearer(a))).statusCode).toBe(200);
    });
  });
});

twoNodes('two server nodes on one Redis and one database', ({ t, nodes }) => {
  it('delivers an event made on node 1 to a relay connected to node 2', async () => {
    const [a, b] = await signupMembers(t.app, 2);
    const device = await subscribeDevice(t.app, b);
    const relay = await connectRelay(nodes.origin2);
    const events = collectEvents(relay);

    await friendAction(t.app, a, 'request', b);

    const event = await eventuallyFind(events, (e) => e.recipientId === b.user.id);
    expect(event.subscriptions).toEqual([device]);
    expect(event.payload.actor.username).toBe(a.username);
  });

  it('sends no devices when the recipient’s tab is open on the other node', async () => {
    const [a, b] = await signupMembers(t.app, 2);
    await subscribeDevice(t.app, b);
    const tab = await open(nodes.origin2, { token: b.token });
    await tab.timeout(5_000).emitWithAck('presence:join', { userId: b.user.id });
    const relay = await connectRelay(nodes.origin1);
    const events = collectEvents(relay);

    await friendAction(t.app, a, 'request', b);

    const event = await eventuallyFind(events, (e) => e.recipientId === b.user.id);
    expect(event.subscriptions).toEqual([]);
  });

  it('sends nothing to the relay of another deployment on the same Redis (another REDIS_PREFIX)', async () => {
    const other = await buildApp({ ...t.config, redisPrefix: `orbit-other-${randomUUID()}` });
    try {
      const [a, b] = await signupMembers(t.app, 2);
      const ours = collectEvents(await connectRelay(nodes.origin2));
      const theirRelay = await connectRelay(await listen(other));
      const theirs = collectEvents(theirRelay);

      await friendAction(t.app, a, 'request', b);

      await eventuallyFind(ours, (e) => e.recipientId === b.user.id);
      // Their own event, made after ours: had ours leaked to them, it would be ahead of it.
      const [c, d] = await signupMembers(other, 2);
      await friendAction(other, c, 'request', d);
      await eventuallyFind(theirs, (e) => e.recipientId === d.user.id);
      theirRelay.disconnect();
      expect(theirs.map((e) => e.recipientId)).toEqual([d.user.id]);
    } finally {
      await other.close();
    }
  });

  it('answers the key a relay brought to node 1 on node 2 as well', async () => {
    const key = p256PublicKey();
    await connectRelay(nodes.origin1, { vapidPublicKey: key });

    const response = await nodes.second.inject({
      method: 'GET',
      url: '/api/push/vapid-public-key',
    });

    expect(response.json()).toEqual({ publicKey: key });
  });
});
