/**
 * A block stops live events between two members at once (docs/product.md "Blocking"): each one's
 * sockets leave the other's gallery and image rooms, presence stops flowing between them, joins
 * are refused, only the blocker's tabs hear of the block, and nothing the other causes is pushed.
 * The last suite does it across two nodes on one Redis.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { describe, expect, it, vi } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { RelayCatchUpAnswer, RelayEvent } from '../../src/contracts/push.ts';
import type { Ack } from '../../src/contracts/realtime.ts';
import { WATCH_REFUSED, galleryRoom, imageRoom } from '../src/plugins/watching.ts';
import { patchImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  forEachDialect,
  friendAction,
  p256PublicKey,
  signupMembers,
  subscribeDevice,
  useTestApp,
} from './helpers.ts';
import { describeTwoNodes, useLiveApp } from './live-app.ts';
import { RELAY_SECRET } from './push-endpoints.ts';
import { block } from './safety-helpers.ts';
import { type Seen, connected, join, listen, record, useSockets } from './sockets.ts';

const twoNodes = await describeTwoNodes('the cross-node block tests', 'blocks');

const openSocket = useSockets();

const joinPresence = (socket: Socket, member: Member) =>
  socket.timeout(5_000).emitWithAck('presence:join', { userId: member.user.id }) as Promise<Ack>;

/**
 * Waits for a marker event on a recording socket and answers what came before it. Events on one
 * socket arrive in the order they were sent: one that should not have come, sent before the
 * marker, would be in the answer.
 */
async function upTo(seen: Seen, isMarker: (entry: [string, unknown]) => boolean): Promise<Seen> {
  await vi.waitFor(() => expect(seen.some(isMarker)).toBe(true), { timeout: 5_000 });
  return seen.slice(0, seen.findIndex(isMarker));
}

const createdBy = (ownerId: string) => (entry: [string, unknown]) =>
  entry[0] === 'gallery:image:created' &&
  (entry[1] as { owner?: { id?: string } }).owner?.id === ownerId;

/** Ids of the member's sockets (on this node) in a room. */
async function socketsOfIn(app: FastifyInstance, room: string) {
  return (await app.realtime.io.in(room).fetchSockets()).map((socket) => socket.data.userId);
}

forEachDialect((dialect) => {
  describe('one node', () => {
    const t = useTestApp(dialect, {
      RELAY_SECRET,
      PUSH_ALLOWED_HOSTS: 'push.example.test',
    });
    const { served, connectAs } = useLiveApp(t);

    /** A blocker, the member they block, and a third member whose gallery marks the order. */
    const trio = async () => {
      const [blocker, blocked, third] = await signupMembers(t.app, 3);
      return { blocker, blocked, third };
    };
    /** A trio, with `named` the one of the blocked pair `who` names and `other` the other one. */
    const trioAs = async (who: 'the blocked member' | 'the blocker') => {
      const members = await trio();
      const { blocker, blocked } = members;
      return who === 'the blocked member'
        ? { ...members, named: blocked, other: blocker }
        : { ...members, named: blocker, other: blocked };
    };

    it.each(['the blocked member', 'the blocker'] as const)(
      'takes %s’s sockets out of the other’s gallery and image rooms at once',
      async (who) => {
        const { blocker, blocked, third, named: watcher, other: owner } = await trioAs(who);
        const photo = await uploadImage(t.app, owner);
        const socket = await connectAs(watcher);
        const seen = record(socket);
        expect(await join(socket, 'gallery:join', { ownerId: owner.user.id })).toMatchObject({
          ok: true,
        });
        expect(await join(socket, 'image:join', { imageId: photo.id })).toMatchObject({ ok: true });
        expect(await join(socket, 'gallery:join', { ownerId: third.user.id })).toMatchObject({
          ok: true,
        });

        await block(t.app, blocker, blocked);

        await vi.waitFor(async () => {
          expect(await socketsOfIn(t.app, galleryRoom(owner.user.id))).not.toContain(
            watcher.user.id,
          );
          expect(await socketsOfIn(t.app, imageRoom(photo.id))).not.toContain(watcher.user.id);
        });
        expect(await socketsOfIn(t.app, galleryRoom(third.user.id))).toContain(watcher.user.id);
        // The owner's gallery changes, then the third member's marks the end.
        await uploadImage(t.app, owner);
        const [liker] = await signupMembers(t.app, 1);
        await patchImage(t.app, liker, photo.id, { likes: true });
        await uploadImage(t.app, third);
        const before = await upTo(seen, createdBy(third.user.id));
        expect(before.filter(([event]) => event.startsWith('gallery:'))).toEqual([]);
        expect(before.filter(([event]) => event === 'presence:update')).toEqual([]);
      },
    );

    it.each(['the blocked member', 'the blocker'] as const)(
      'stops the other’s presence reaching %s',
      async (who) => {
        const { blocker, blocked, third, named: watcher, other: watched } = await trioAs(who);
        const socket = await connectAs(watcher);
        const seen = record(socket);
        await join(socket, 'gallery:join', { ownerId: watched.user.id });
        await join(socket, 'gallery:join', { ownerId: third.user.id });

        await block(t.app, blocker, blocked);
        const watchedTab = await connectAs(watched);
        await joinPresence(watchedTab, watched);
        watchedTab.disconnect();
        // The third member coming online marks the end.
        await joinPresence(await connectAs(third), third);

        const before = await upTo(
          seen,
          ([event, payload]) =>
            event === 'presence:update' && (payload as { userId: string }).userId === third.user.id,
        );
        expect(before.filter(([event]) => event === 'presence:update')).toEqual([]);
      },
    );

    it.each(['the blocked member', 'the blocker'] as const)(
      'refuses gallery:join and image:join between them, asked by %s, without the online flag',
      async (who) => {
        const { blocker, blocked, named: asker, other: owner } = await trioAs(who);
        const photo = await uploadImage(t.app, owner);
        await joinPresence(await connectAs(owner), owner);
        await block(t.app, blocker, blocked);
        const socket = await connectAs(asker);

        expect(await join(socket, 'gallery:join', { ownerId: owner.user.id })).toEqual({
          ok: false,
          error: WATCH_REFUSED.gallery,
        });
        expect(await join(socket, 'image:join', { imageId: photo.id })).toEqual({
          ok: false,
          error: WATCH_REFUSED.image,
        });
        expect(await socketsOfIn(t.app, galleryRoom(owner.user.id))).not.toContain(asker.user.id);
        expect(await socketsOfIn(t.app, imageRoom(photo.id))).not.toContain(asker.user.id);
        // The owner still watches their own.
        const own = await connectAs(owner);
        expect(await join(own, 'image:join', { imageId: photo.id })).toEqual({
          ok: true,
          online: true,
        });
      },
    );

    it.each(['the blocked member', 'the blocker'] as const)(
      'refuses %s a join of the other’s gallery or photo exactly as one of nothing that exists',
      async (who) => {
        const { blocker, blocked, named: asker, other: owner } = await trioAs(who);
        const photo = await uploadImage(t.app, owner);
        await block(t.app, blocker, blocked);
        const socket = await connectAs(asker);
        const joins = async (ownerId: string, imageId: string) => [
          await join(socket, 'gallery:join', { ownerId }),
          await join(socket, 'image:join', { imageId }),
        ];

        const hidden = await joins(owner.user.id, photo.id);
        const absent = await joins(randomUUID(), randomUUID());

        expect(hidden).toEqual(absent);
        expect(absent).toEqual([
          { ok: false, error: WATCH_REFUSED.gallery },
          { ok: false, error: WATCH_REFUSED.image },
        ]);
        expect(await socketsOfIn(t.app, galleryRoom(owner.user.id))).not.toContain(asker.user.id);
      },
    );

    it('answers a join made just before the block with the block’s leave, never the other way round', async () => {
      const { blocker, blocked } = await trio();
      const socket = await connectAs(blocked);
      // The join and the block race: whichever wins, the socket ends outside the room.
      await Promise.all([
        join(socket, 'gallery:join', { ownerId: blocker.user.id }),
        block(t.app, blocker, blocked),
      ]);

      await vi.waitFor(async () =>
        expect(await socketsOfIn(t.app, galleryRoom(blocker.user.id))).not.toContain(
          blocked.user.id,
        ),
      );
    });

    it('tells the blocker’s tabs what ended, and the blocked member nothing at all', async () => {
      const { blocker, blocked, third } = await trio();
      await friendAction(t.app, blocker, 'request', blocked);
      await friendAction(t.app, blocked, 'accept', blocker);
      const [blockerTab, blockedTab] = [await connectAs(blocker), await connectAs(blocked)];
      const seen = { blocker: record(blockerTab), blocked: record(blockedTab) };

      await block(t.app, blocker, blocked);
      await friendAction(t.app, third, 'request', blocked);

      await vi.waitFor(() =>
        expect(seen.blocker.map(([event]) => event)).toEqual(
          expect.arrayContaining(['friend:removed', 'notification:changed']),
        ),
      );
      expect(seen.blocker.find(([event]) => event === 'friend:removed')?.[1]).toEqual({
        fromUserId: blocker.user.id,
        toUserId: blocked.user.id,
        pairKey: pairKey(blocker.user.id, blocked.user.id),
      });
      const before = await upTo(
        seen.blocked,
        ([event, payload]) =>
          event === 'friend:request:created' &&
          (payload as { fromUserId: string }).fromUserId === third.user.id,
      );
      expect(before).toEqual([]);
    });

    it.each([
      ['friend:request:canceled', 'a request the blocker sent'],
      ['friend:declined', 'a request the blocker received'],
      ['friend:removed', 'no relation'],
    ] as const)('tells the blocker %s when the block ends %s', async (event, what) => {
      const { blocker, blocked } = await trio();
      if (what === 'a request the blocker sent')
        await friendAction(t.app, blocker, 'request', blocked);
      if (what === 'a request the blocker received')
        await friendAction(t.app, blocked, 'request', blocker);
      const tab = await connectAs(blocker);
      const seen = record(tab);

      await block(t.app, blocker, blocked);

      await vi.waitFor(() => expect(seen.map(([name]) => name)).toContain(event));
      expect(seen.filter(([name]) => name.startsWith('friend:')).map(([name]) => name)).toEqual([
        event,
      ]);
    });

    describe('push', () => {
      /** A relay on the /relay namespace that records every event it is handed. */
      const relayEvents = async () => {
        const relay = await connected(
          openSocket(`${served.url}/relay`, {
            auth: { secret: RELAY_SECRET, vapidPublicKey: p256PublicKey() },
          }),
        );
        const events: RelayEvent[] = [];
        relay.on('relay:event', (event: RelayEvent, ack: () => void) => {
          events.push(event);
          ack();
        });
        return { relay, events };
      };

      it('hands the relay nothing the other causes, and catch-up holds nothing between them', async () => {
        const { blocker, blocked, third } = await trio();
        await subscribeDevice(t.app, blocker);
        await subscribeDevice(t.app, blocked);
        const { relay, events } = await relayEvents();
        const latest = (await relay
          .timeout(5_000)
          .emitWithAck('relay:catch-up', { after: null, limit: 1 })) as RelayCatchUpAnswer;
        // A request from before the block: pushed then, gone from catch-up after it.
        await friendAction(t.app, blocked, 'request', blocker);
        await vi.waitFor(() => expect(events).toHaveLength(1));

        await block(t.app, blocker, blocked);
        for (const [actor, other] of [
          [blocked, blocker],
          [blocker, blocked],
        ] as const) {
          await friendAction(t.app, actor, 'request', other);
          await friendAction(t.app, actor, 'accept', other);
        }
        await friendAction(t.app, third, 'request', blocker);

        await vi.waitFor(() => expect(events).toHaveLength(2));
        expect(events[1]?.payload.actor.id).toBe(third.user.id);
        expect(events[1]?.payload.unread).toBe(2);
        const caught = (await relay.timeout(5_000).emitWithAck('relay:catch-up', {
          after: latest.latest,
          limit: 100,
        })) as RelayCatchUpAnswer;
        expect(caught.events.map((event) => event.payload.actor.id)).toEqual([third.user.id]);
      });

      it('leaves out of catch-up and the badge a friend notification written in the moment of a block', async () => {
        const { blocker, blocked } = await trio();
        const { relay } = await relayEvents();
        await block(t.app, blocker, blocked);
        const row = await t.app.db
          .insertInto('notifications')
          .values({
            recipient_id: blocker.user.id,
            type: 'friend_request',
            actor_id: blocked.user.id,
            message: ' sent you a friend request',
            link: '',
            request_id: pairKey(blocker.user.id, blocked.user.id),
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();

        const caught = (await relay.timeout(5_000).emitWithAck('relay:catch-up', {
          after: row.id - 1,
          limit: 10,
        })) as RelayCatchUpAnswer;

        expect(caught.events).toEqual([]);
        expect(caught.latest).toBe(row.id);
      });
    });
  });

  describe('a node that lost its database', () => {
    const t = useTestApp(dialect);

    it('refuses a watch it cannot check instead of joining unchecked', async () => {
      const [owner, asker] = await signupMembers(t.app, 2);
      const photo = await uploadImage(t.app, owner);
      const socket = await connected(
        openSocket(await listen(t.app), { auth: { token: asker.token } }),
      );
      await t.app.db.destroy();

      for (const [event, payload, room] of [
        ['gallery:join', { ownerId: owner.user.id }, galleryRoom(owner.user.id)],
        ['image:join', { imageId: photo.id }, imageRoom(photo.id)],
      ] as const) {
        expect(await join(socket, event, payload)).toEqual({
          ok: false,
          error: 'Could not watch that now. Try again.',
        });
        expect(await socketsOfIn(t.app, room)).toEqual([]);
      }
    });
  });
});

twoNodes('two nodes on one Redis', ({ t, nodes, connectTo }) => {
  it('takes the blocked member’s sockets on the other node out of the blocker’s rooms within a second', async () => {
    const [blocker, blocked, third] = await signupMembers(t.app, 3);
    const photo = await uploadImage(t.app, blocker);
    const socket = await connectTo(nodes.origin2, blocked);
    const seen = record(socket);
    await join(socket, 'gallery:join', { ownerId: blocker.user.id });
    await join(socket, 'image:join', { imageId: photo.id });
    await join(socket, 'gallery:join', { ownerId: third.user.id });
    expect(await socketsOfIn(nodes.second, galleryRoom(blocker.user.id))).toContain(
      blocked.user.id,
    );

    const since = Date.now();
    await block(t.app, blocker, blocked);

    await vi.waitFor(
      async () => {
        expect(await socketsOfIn(nodes.second, galleryRoom(blocker.user.id))).not.toContain(
          blocked.user.id,
        );
        expect(await socketsOfIn(nodes.second, imageRoom(photo.id))).not.toContain(blocked.user.id);
      },
      { timeout: 1_000, interval: 20 },
    );
    expect(Date.now() - since).toBeLessThan(1_000);
    await uploadImage(t.app, blocker);
    await uploadImage(t.app, third);
    const before = await upTo(seen, createdBy(third.user.id));
    expect(before.filter(([event]) => event.startsWith('gallery:'))).toEqual([]);
    expect(await join(socket, 'gallery:join', { ownerId: blocker.user.id })).toEqual({
      ok: false,
      error: WATCH_REFUSED.gallery,
    });
  });
});
