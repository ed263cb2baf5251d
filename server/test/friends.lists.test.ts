/** Counts and lists after each step (docs/product.md "Friends"), and calls on one pair racing each other. */
import { describe, expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import {
  type FriendAction,
  type Member,
  asBearer,
  friendAction,
  friendStatus,
  friendshipRows,
  signupMembers,
  forEachApp,
  friendPair,
  requestedPair,
} from './helpers.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

forEachApp((t) => {
  const members = async (count: number) => signupMembers(t.app, count);
  const pair = async (): Promise<[Member, Member]> => {
    const [a, b] = await members(2);
    return [a as Member, b as Member];
  };
  const get = async <T>(member: Member, path: string, query: Record<string, string> = {}) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/friends/${path}`,
      query,
      headers: asBearer(member),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const counts = (member: Member) => get<object>(member, 'counts');
  /** Both members' counts, `a`'s first. */
  const countsOf = async (a: Member, b: Member) => [await counts(a), await counts(b)];
  const NONE = { incoming: 0, outgoing: 0, friends: 0 };
  type Item = { user: { id: string }; fromUserId: string; toUserId: string };
  const list = async (member: Member, path: string, query: Record<string, string> = {}) =>
    (await get<{ results: Item[] }>(member, path, query)).results;
  const ids = (items: Item[]) => items.map((item) => item.user.id);
  /** The item docs/product.md "Friends" describes, for a list entry showing `shown`. */
  const expectedItem = (shown: Member, from: Member, to: Member) => ({
    requestId: pairKey(from.user.id, to.user.id),
    user: {
      id: shown.user.id,
      username: shown.username,
      fullName: 'Ada Lovelace',
      profileImage: shown.user.profileImage,
    },
    fromUserId: from.user.id,
    toUserId: to.user.id,
    createdAt: expect.stringMatching(ISO) as unknown,
  });

  describe('GET /api/users/friends/counts', () => {
    it('answers zeros for a new member', async () => {
      const [a] = await pair();

      expect(await counts(a)).toEqual(NONE);
    });

    it('counts a request as outgoing for the sender and incoming for the receiver', async () => {
      const [a, b] = await requestedPair(t.app);

      expect(await countsOf(a, b)).toEqual([
        { incoming: 0, outgoing: 1, friends: 0 },
        { incoming: 1, outgoing: 0, friends: 0 },
      ]);
    });

    it('counts one friend on each side after an accept', async () => {
      const [a, b] = await friendPair(t.app);

      const friendOnEachSide = { incoming: 0, outgoing: 0, friends: 1 };
      expect(await countsOf(a, b)).toEqual([friendOnEachSide, friendOnEachSide]);
    });

    it.each([
      ['a cancel', 'cancel', 'sender'],
      ['a decline', 'decline', 'receiver'],
    ] as const)('goes back to zeros after %s', async (_name, action, side) => {
      const [a, b] = await requestedPair(t.app);

      await (side === 'sender'
        ? friendAction(t.app, a, action, b)
        : friendAction(t.app, b, action, a));

      expect(await countsOf(a, b)).toEqual([NONE, NONE]);
    });

    it('goes back to zeros after an unfriend', async () => {
      const [a, b] = await friendPair(t.app);
      await friendAction(t.app, b, 'unfriend', a);

      expect(await countsOf(a, b)).toEqual([NONE, NONE]);
    });

    it('adds up several relations of one member', async () => {
      const [me, f, out1, out2, in1] = (await members(5)) as [
        Member,
        Member,
        Member,
        Member,
        Member,
      ];
      await friendAction(t.app, me, 'request', f);
      await friendAction(t.app, f, 'accept', me);
      await friendAction(t.app, me, 'request', out1);
      await friendAction(t.app, me, 'request', out2);
      await friendAction(t.app, in1, 'request', me);

      expect(await counts(me)).toEqual({ incoming: 1, outgoing: 2, friends: 1 });
    });
  });

  describe('the incoming, outgoing and friends lists', () => {
    it('shows the receiver the request with the sender as its user', async () => {
      const [a, b] = await requestedPair(t.app);

      expect(await get(b, 'incoming')).toEqual({ results: [expectedItem(a, a, b)] });
      expect(await list(a, 'incoming')).toEqual([]);
    });

    it('shows the sender the request with the receiver as its user', async () => {
      const [a, b] = await requestedPair(t.app);

      expect(await get(a, 'outgoing')).toEqual({ results: [expectedItem(b, a, b)] });
      expect(await list(b, 'outgoing')).toEqual([]);
    });

    it('moves the pair from the request lists to both friends lists on accept', async () => {
      const [a, b] = await friendPair(t.app);

      expect(await list(a, 'outgoing')).toEqual([]);
      expect(await list(b, 'incoming')).toEqual([]);
      expect(await get(a, 'list')).toEqual({ results: [expectedItem(b, a, b)] });
      expect(await get(b, 'list')).toEqual({ results: [expectedItem(a, a, b)] });
    });

    it('empties every list after an unfriend', async () => {
      const [a, b] = await friendPair(t.app);
      await friendAction(t.app, a, 'unfriend', b);

      for (const member of [a, b]) {
        for (const path of ['incoming', 'outgoing', 'list'])
          expect(await list(member, path)).toEqual([]);
      }
    });

    it('lists the newest request first', async () => {
      const [me, first, second] = (await members(3)) as [Member, Member, Member];
      await friendAction(t.app, first, 'request', me);
      await new Promise((resolve) => setTimeout(resolve, 5)); // distinct millisecond stamps
      await friendAction(t.app, second, 'request', me);

      expect(ids(await list(me, 'incoming'))).toEqual([second.user.id, first.user.id]);
    });

    it('lists another member’s friends by ?username= and by ?userId=', async () => {
      const [viewer, owner, friend] = (await members(3)) as [Member, Member, Member];
      await friendAction(t.app, owner, 'request', friend);
      await friendAction(t.app, friend, 'accept', owner);

      expect(ids(await list(viewer, 'list', { username: owner.username }))).toEqual([
        friend.user.id,
      ]);
      expect(ids(await list(viewer, 'list', { userId: owner.user.id }))).toEqual([friend.user.id]);
      expect(await list(viewer, 'list')).toEqual([]);
    });

    it('answers 404 for the friends of a member who does not exist', async () => {
      const [viewer] = await pair();

      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/friends/list?username=nobody.here',
        headers: asBearer(viewer),
      });

      expect(response.statusCode).toBe(404);
    });
  });

  describe('calls on one pair racing each other', () => {
    /** Both sides' views agree: none/none, pending/incoming either way, or friends/friends. */
    const expectConsistent = async (a: Member, b: Member) => {
      const seen = `${await friendStatus(t.app, a, b)}/${await friendStatus(t.app, b, a)}`;
      expect(['none/none', 'pending/incoming', 'incoming/pending', 'friends/friends']).toContain(
        seen,
      );
      const rows = await friendshipRows(t.app, a, b);
      expect(rows.length).toBeLessThanOrEqual(1);
      return seen;
    };

    it('leaves one row and makes friends from 20 requests each way at once', async () => {
      const [a, b] = await pair();

      const responses = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          index % 2 === 0
            ? friendAction(t.app, a, 'request', b)
            : friendAction(t.app, b, 'request', a),
        ),
      );

      for (const response of responses) {
        expect(response.statusCode).toBe(200);
        expect(['pending', 'friends']).toContain(response.json<{ status: string }>().status);
      }
      expect(await friendshipRows(t.app, a, b)).toHaveLength(1);
      expect(await expectConsistent(a, b)).toBe('friends/friends');
    });

    it('never leaves two rows or a lopsided status after 20 mixed calls at once', async () => {
      const [a, b] = await requestedPair(t.app);
      const mix: [Member, FriendAction, Member][] = [
        [b, 'accept', a],
        [a, 'unfriend', b],
        [b, 'unfriend', a],
        [a, 'request', b],
        [b, 'request', a],
      ];

      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) => {
          const [actor, action, other] = mix[index % mix.length] as [Member, FriendAction, Member];
          return friendAction(t.app, actor, action, other);
        }),
      );

      for (const response of responses) expect([200, 403, 404]).toContain(response.statusCode);
      await expectConsistent(a, b);
    });

    it('ends with no row after a settled accept is raced by unfriends from both sides', async () => {
      const [a, b] = await friendPair(t.app);

      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0
            ? friendAction(t.app, a, 'unfriend', b)
            : friendAction(t.app, b, 'unfriend', a),
        ),
      );

      for (const response of responses) expect(response.json()).toEqual({ status: 'none' });
      expect(await expectConsistent(a, b)).toBe('none/none');
    });
  });
});
