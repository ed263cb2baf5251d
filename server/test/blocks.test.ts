/**
 * Blocking (docs/product.md "Blocking"): the calls, and every rule held from both sides. While a
 * block exists in either direction, neither member finds, sees or reaches the other, and nothing
 * the other causes reaches them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../src/contracts/friends.ts';
import type { NotificationPage } from '../../src/contracts/notifications.ts';
import { BLOCK_SELF, type BlockListResponse } from '../../src/contracts/safety.ts';
import { insertLikeNotificationOnce } from '../src/features/notifications/repository.ts';
import { blockedBetween } from '../src/members/blocks.ts';
import { jpegPart, patchImage, uploadImage } from './gallery-helpers.ts';
import {
  expectError,
  FRIEND_ACTIONS,
  type Member,
  ORIGIN,
  TARGET_FIELD,
  asBearer,
  forEachApp,
  friendAction,
  friendStatus,
  friendshipRows,
  patchProfileForm,
  postFriend,
  signupMembers,
  signupPair,
  uniqueUsername,
} from './helpers.ts';
import { block, postBlock, unblock } from './safety-helpers.ts';

forEachApp((t) => {
  const get = (member: Member, url: string, query: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, query, headers: asBearer(member) });

  const search = async (member: Member, q: string, limit = 12) => {
    const response = await get(member, '/api/users/search', { q, limit: String(limit) });
    expect(response.statusCode).toBe(200);
    return response.json<{ users: SearchResult[] }>().users.map((user) => user.username);
  };

  const notifications = async (member: Member) => {
    const response = await get(member, '/api/notifications');
    expect(response.statusCode).toBe(200);
    return response.json<NotificationPage>();
  };

  const blockList = async (member: Member) => {
    const response = await get(member, '/api/users/blocks');
    expect(response.statusCode).toBe(200);
    return response.json<BlockListResponse>().users;
  };

  /** A blocker and the member they blocked, with one photo each. */
  const blockedPair = async () => {
    const [blocker, blocked] = await signupPair(t.app);
    const photos = {
      blocker: await uploadImage(t.app, blocker, { folder: 'Trips' }),
      blocked: await uploadImage(t.app, blocked, { folder: 'Trips' }),
    };
    await block(t.app, blocker, blocked);
    return { blocker, blocked, photos };
  };

  /** Each rule is held both ways: as the blocker looking at the blocked member, and back. */
  const BOTH_SIDES = ['the blocker', 'the blocked member'] as const;
  const sides = (pair: { blocker: Member; blocked: Member }, side: (typeof BOTH_SIDES)[number]) =>
    side === 'the blocker' ? [pair.blocker, pair.blocked] : [pair.blocked, pair.blocker];

  describe('the calls', () => {
    it('answers 400 to blocking oneself', async () => {
      const [me] = await signupMembers(t.app, 1);

      const response = await postBlock(t.app, me, me.user.id);

      expectError(response, 400, BLOCK_SELF);
    });

    it('answers 404 to blocking a member who does not exist', async () => {
      const [me] = await signupMembers(t.app, 1);

      const response = await postBlock(t.app, me, randomUUID());

      expectError(response, 404, 'No such member.');
    });

    it('answers 401 to every call when signed out', async () => {
      const calls = [
        t.app.inject({ method: 'GET', url: '/api/users/blocks' }),
        t.app.inject({
          method: 'POST',
          url: '/api/users/blocks',
          headers: { origin: ORIGIN },
          payload: { userId: 'x' },
        }),
        t.app.inject({ method: 'DELETE', url: '/api/users/blocks/x', headers: { origin: ORIGIN } }),
      ];
      for (const response of await Promise.all(calls)) expect(response.statusCode).toBe(401);
    });

    it('lists the members one blocked, newest first, and not those who blocked one', async () => {
      const [me, first, second, blocker] = await signupMembers(t.app, 4);
      await block(t.app, me, first);
      // Distinct millisecond stamps: blocks made in one millisecond are listed by id.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await block(t.app, me, second);
      await block(t.app, blocker, me);

      const listed = await blockList(me);

      expect(listed.map((user) => user.username)).toEqual([second.username, first.username]);
      expect(listed[0]).toEqual({
        id: second.user.id,
        username: second.username,
        blockedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      });
    });

    it('blocks once however often it is asked, at once too', async () => {
      const [me, other] = await signupPair(t.app);

      const responses = await Promise.all([
        postBlock(t.app, me, other.user.id),
        postBlock(t.app, me, other.user.id),
        postBlock(t.app, me, other.user.id),
      ]);

      expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
      expect(responses[0]?.json()).toEqual({ ok: true });
      expect(await blockList(me)).toHaveLength(1);
    });

    it('lets each of the two block the other, and each block is lifted alone', async () => {
      const [a, b] = await signupPair(t.app);
      await block(t.app, a, b);
      await block(t.app, b, a);

      await unblock(t.app, a, b);

      expect(await blockedBetween(t.app.db, a.user.id, b.user.id)).toBe(true);
      expect((await get(a, `/api/users/profile/${b.username}`)).statusCode).toBe(404);
      await unblock(t.app, b, a);
      expect((await get(a, `/api/users/profile/${b.username}`)).statusCode).toBe(200);
    });

    it('answers {ok: true} to lifting a block that does not exist', async () => {
      const [a, b] = await signupPair(t.app);

      await unblock(t.app, a, b);
      const response = await t.app.inject({
        method: 'DELETE',
        url: '/api/users/blocks/nobody',
        headers: asBearer(a),
      });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });
    });
  });

  describe('the block list shows whom one blocked as one knew them', () => {
    /** `member` takes a new username and a new picture. */
    const rename = async (member: Member) => {
      const username = uniqueUsername('gone');
      const response = await patchProfileForm(t.app, member, {
        username,
        profilePic: await jpegPart(),
      });
      expect(response.statusCode).toBe(200);
      return username;
    };

    it('keeps the username the member had when blocked, and shows no picture of theirs', async () => {
      const [me, other] = await signupPair(t.app);
      await block(t.app, me, other);

      const renamed = await rename(other);

      const listed = await blockList(me);
      expect(listed).toEqual([
        { id: other.user.id, username: other.username, blockedAt: expect.any(String) as unknown },
      ]);
      expect(JSON.stringify(listed)).not.toContain(renamed);
      expect(JSON.stringify(listed)).not.toContain('/uploads/');
    });

    it('names nobody for a member who had blocked one first, then renamed, and answers the block as any other', async () => {
      const [me, blocker, anyone] = await signupMembers(t.app, 3);
      await block(t.app, blocker, me);
      const renamed = await rename(blocker);

      const answers = [
        await postBlock(t.app, me, blocker.user.id),
        // Distinct millisecond stamps: blocks made in one millisecond are listed by id.
        await new Promise((resolve) => setTimeout(resolve, 5)).then(() =>
          postBlock(t.app, me, anyone.user.id),
        ),
      ];

      expect(answers.map((answer) => [answer.statusCode, answer.body])).toEqual([
        [200, '{"ok":true}'],
        [200, '{"ok":true}'],
      ]);
      const listed = await blockList(me);
      expect(listed.map((user) => [user.id, user.username])).toEqual([
        [anyone.user.id, anyone.username],
        [blocker.user.id, null],
      ]);
      expect(JSON.stringify(listed)).not.toContain(renamed);
      // Lifting it works as for any block.
      await unblock(t.app, me, blocker);
      expect((await blockList(me)).map((user) => user.id)).toEqual([anyone.user.id]);
    });

    it('lets the blocked member block back with the same answer, and lists the blocker nameless, not renamed', async () => {
      const [blocker, blocked] = await signupPair(t.app);
      await block(t.app, blocker, blocked);
      await rename(blocker);

      const back = await postBlock(t.app, blocked, blocker.user.id);

      expect([back.statusCode, back.json()]).toEqual([200, { ok: true }]);
      expect(await blockList(blocked)).toEqual([
        { id: blocker.user.id, username: null, blockedAt: expect.any(String) as unknown },
      ]);
      // The first blocker's own list keeps the name they saw.
      expect((await blockList(blocker)).map((user) => user.username)).toEqual([blocked.username]);
    });
  });

  describe('what a block ends', () => {
    it.each([
      ['a friendship', ['request', 'accept']],
      ['a request the blocker sent', ['request']],
      ['a request the blocker received', ['received']],
    ] as const)('ends %s, with its notifications both ways', async (_what, steps) => {
      const [blocker, blocked] = await signupPair(t.app);
      for (const step of steps) {
        if (step === 'request') await friendAction(t.app, blocker, 'request', blocked);
        if (step === 'accept') await friendAction(t.app, blocked, 'accept', blocker);
        if (step === 'received') await friendAction(t.app, blocked, 'request', blocker);
      }

      await block(t.app, blocker, blocked);

      expect(await friendshipRows(t.app, blocker, blocked)).toEqual([]);
      const between = await t.app.db
        .selectFrom('notifications')
        .select('type')
        .where('type', 'in', ['friend_request', 'follow'])
        .where((eb) =>
          eb.or([
            eb.and([
              eb('recipient_id', '=', blocker.user.id),
              eb('actor_id', '=', blocked.user.id),
            ]),
            eb.and([
              eb('recipient_id', '=', blocked.user.id),
              eb('actor_id', '=', blocker.user.id),
            ]),
          ]),
        )
        .execute();
      expect(between).toEqual([]);
    });

    it('brings nothing back when it is lifted', async () => {
      const [blocker, blocked] = await signupPair(t.app);
      await friendAction(t.app, blocker, 'request', blocked);
      await friendAction(t.app, blocked, 'accept', blocker);
      await block(t.app, blocker, blocked);

      await unblock(t.app, blocker, blocked);

      expect(await friendStatus(t.app, blocker, blocked)).toBe('none');
      expect(await friendStatus(t.app, blocked, blocker)).toBe('none');
      expect(await blockList(blocker)).toEqual([]);
      // And the two may be friends again.
      await friendAction(t.app, blocked, 'request', blocker);
      expect(await friendStatus(t.app, blocker, blocked)).toBe('incoming');
    });
  });

  describe.each(BOTH_SIDES)('seen from %s', (side) => {
    let pair: Awaited<ReturnType<typeof blockedPair>>;
    let viewer: Member;
    let other: Member;
    beforeAll(async () => {
      pair = await blockedPair();
      [viewer, other] = sides(pair, side) as [Member, Member];
    });
    const photoOf = (member: Member) =>
      member === pair.blocker ? pair.photos.blocker : pair.photos.blocked;

    it('does not find the other in search, by username, name or substring', async () => {
      expect(await search(viewer, other.username)).toEqual([]);
      expect(await search(viewer, other.username.slice(0, 8))).not.toContain(other.username);
      expect(await search(viewer, other.username.slice(2, 9))).not.toContain(other.username);
      // The viewer still finds themself.
      expect(await search(viewer, viewer.username)).toEqual([viewer.username]);
    });

    it('does not see the other’s profile (404, as if absent)', async () => {
      const response = await get(viewer, `/api/users/profile/${other.username}`);

      expectError(response, 404, 'No member with that username.');
    });

    it.each([
      ['/api/gallery', 'userId'],
      ['/api/gallery', 'username'],
      ['/api/gallery/folders', 'userId'],
      ['/api/gallery/folders', 'username'],
    ] as const)('does not see the other’s gallery at %s by %s (404)', async (url, by) => {
      const response = await get(viewer, url, {
        [by]: by === 'userId' ? other.user.id : other.username,
      });

      expectError(response, 404, 'No member matches that gallery.');
    });

    it.each([
      ['a like', { likes: true }],
      ['a dislike', { dislikes: true }],
      ['taking a like back', { likes: false }],
      ['the id arrays', { likes: ['x'], dislikes: [] }],
    ] as const)('cannot react to the other’s photo with %s (404)', async (_what, body) => {
      const photo = photoOf(other);

      const response = await patchImage(t.app, viewer, photo.id, body);

      expect(response.statusCode).toBe(404);
      const reactions = await t.app.db
        .selectFrom('image_reactions')
        .select('user_id')
        .where('image_id', '=', photo.id)
        .execute();
      expect(reactions).toEqual([]);
    });

    it('does not see the other’s friends list (404)', async () => {
      for (const query of [{ userId: other.user.id }, { username: other.username }]) {
        const response = await get(viewer, '/api/users/friends/list', query);
        expect(response.statusCode).toBe(404);
      }
    });

    it.each(FRIEND_ACTIONS)('cannot %s the other (404), by id or by username', async (action) => {
      for (const body of [
        { [TARGET_FIELD[action]]: other.user.id },
        { username: other.username },
      ]) {
        const response = await postFriend(t.app, action, body, asBearer(viewer));
        expectError(response, 404, 'No member matches that user id or username.');
      }
      expect(await friendshipRows(t.app, viewer, other)).toEqual([]);
    });

    it('cannot ask the pair’s status (404)', async () => {
      const response = await get(viewer, '/api/users/friends/status', { userId: other.user.id });

      expect(response.statusCode).toBe(404);
    });

    it('still sees their own profile, gallery and friends', async () => {
      expect((await get(viewer, `/api/users/profile/${viewer.username}`)).statusCode).toBe(200);
      expect((await get(viewer, '/api/gallery', { userId: viewer.user.id })).statusCode).toBe(200);
      expect((await get(viewer, '/api/users/friends/list')).statusCode).toBe(200);
    });
  });

  describe('lists', () => {
    it('fills the search limit with members the viewer may see, not leaving a blocked one’s place empty', async () => {
      const prefix = `z${randomBytes(3).toString('hex')}`;
      const [viewer] = await signupMembers(t.app, 1);
      // The blocked member sorts first; four more share the prefix.
      const members = await signupMembers(t.app, 5, (index) => ({
        username: `${prefix}${String.fromCharCode(97 + index)}`,
      }));
      const [first] = members;
      await block(t.app, first, viewer);

      const found = await search(viewer, prefix, 4);

      expect(found).toEqual(members.slice(1).map((member) => member.username));
    });

    it('leaves a blocked member out of a third member’s friends list, for the two of them only', async () => {
      const [a, b, c, d] = await signupMembers(t.app, 4);
      for (const friend of [a, b]) {
        await friendAction(t.app, friend, 'request', c);
        await friendAction(t.app, c, 'accept', friend);
      }
      await block(t.app, a, b);

      const listed = async (viewer: Member) =>
        (await get(viewer, '/api/users/friends/list', { userId: c.user.id }))
          .json<{ results: { user: { username: string } }[] }>()
          .results.map((item) => item.user.username)
          .sort();

      expect(await listed(a)).toEqual([a.username]);
      expect(await listed(b)).toEqual([b.username]);
      expect(await listed(d)).toEqual([a.username, b.username].sort());
    });
  });

  describe('notifications', () => {
    it.each(BOTH_SIDES)(
      'hides from %s what the other caused before, in the list and the unread count',
      async (side) => {
        const [a, b] = await signupPair(t.app);
        const photos = [await uploadImage(t.app, a), await uploadImage(t.app, b)];
        await patchImage(t.app, b, photos[0]?.id ?? '', { likes: true });
        await patchImage(t.app, a, photos[1]?.id ?? '', { likes: true });
        const before = { a: await notifications(a), b: await notifications(b) };
        expect(before.a.notifications.map((n) => n.type)).toContain('like');
        expect(before.b.notifications.map((n) => n.type)).toContain('like');

        if (side === 'the blocker') await block(t.app, a, b);
        else await block(t.app, b, a);

        for (const [member, other] of [
          [a, b],
          [b, a],
        ] as const) {
          const after = await notifications(member);
          expect(after.notifications.filter((n) => n.actor?.id === other.user.id)).toEqual([]);
          expect(after.notifications.map((n) => n.message)).toContain('Welcome to Orbit!');
          expect(after.unread).toBe(1);
        }
      },
    );

    it.each(BOTH_SIDES)(
      'lets %s neither read nor remove what the other caused, as if it did not exist, and shows it again unread once lifted',
      async (side) => {
        const [a, b] = await signupPair(t.app);
        const photo = await uploadImage(t.app, a);
        await patchImage(t.app, b, photo.id, { likes: true });
        const like = (await notifications(a)).notifications.find((n) => n.type === 'like');
        if (!like) throw new Error('no like notification');
        const [blocker, blocked] = side === 'the blocker' ? [a, b] : [b, a];
        await block(t.app, blocker, blocked);
        const call = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
          t.app.inject({ method, url, headers: asBearer(a), ...(payload ? { payload } : {}) });
        const absent = String(Number(like.id) + 1_000_000);

        for (const id of [like.id, absent]) {
          const removed = await call('DELETE', `/api/notifications/${id}`);
          expect([removed.statusCode, removed.json()]).toEqual([
            404,
            { error: 'No such notification.' },
          ]);
        }
        expect((await call('POST', '/api/notifications/read', { ids: [like.id] })).json()).toEqual({
          ok: true,
          unread: 1,
        });
        await call('POST', '/api/notifications/read', { all: true });
        expect((await call('DELETE', '/api/notifications')).statusCode).toBe(204);
        await unblock(t.app, blocker, blocked);

        const after = await notifications(a);
        expect(after.notifications.map((n) => [n.id, n.read])).toEqual([[like.id, false]]);
        expect(after.unread).toBe(1);
      },
    );

    it('writes no like notification between a blocked pair, even from a like that raced the block', async () => {
      const [a, b] = await signupPair(t.app);
      const photo = await uploadImage(t.app, a);
      await block(t.app, a, b);

      const written = await insertLikeNotificationOnce(t.app.db, {
        recipient_id: a.user.id,
        type: 'like',
        actor_id: b.user.id,
        message: ' liked your photo',
        link: '',
        image_id: photo.id,
        created_at: new Date().toISOString(),
      });

      expect(written).toBeUndefined();
    });

    it('sends no friend request notification between them', async () => {
      const { blocker, blocked } = await blockedPair();

      await friendAction(t.app, blocked, 'request', blocker);
      await friendAction(t.app, blocker, 'request', blocked);

      const rows = await t.app.db
        .selectFrom('notifications')
        .select('id')
        .where('recipient_id', 'in', [blocker.user.id, blocked.user.id])
        .where('type', '=', 'friend_request')
        .execute();
      expect(rows).toEqual([]);
    });
  });
});
