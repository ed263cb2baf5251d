/** Every transition of docs/product.md "Friends", from both sides, each call answering {status} in the client's words. */
import { describe, expect, it } from 'vitest';
import {
  type Member,
  asBearer,
  asCookie,
  friendAction,
  friendStatus,
  friendshipRows,
  postFriend,
  forEachApp,
  signupPair,
  getFriendStatus,
} from './helpers.ts';

forEachApp((t) => {
  /** Two fresh members: `a` usually acts first. */
  const pair = () => signupPair(t.app);
  const run = (actor: Member, action: Parameters<typeof friendAction>[2], other: Member) =>
    friendAction(t.app, actor, action, other);
  const statuses = async (a: Member, b: Member) => [
    await friendStatus(t.app, a, b),
    await friendStatus(t.app, b, a),
  ];

  describe('a request', () => {
    it('answers pending to the sender and shows incoming to the receiver', async () => {
      const [a, b] = await pair();

      const response = await run(a, 'request', b);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'pending' });
      expect(await statuses(a, b)).toEqual(['pending', 'incoming']);
    });

    it('may name the receiver by username alone', async () => {
      const [a, b] = await pair();

      const response = await postFriend(t.app, 'request', { username: b.username }, asBearer(a));

      expect(response.json()).toEqual({ status: 'pending' });
      expect(await friendStatus(t.app, b, a)).toBe('incoming');
    });

    it('works riding on the session cookie from an allowed page', async () => {
      const [a, b] = await pair();

      const response = await postFriend(t.app, 'request', { toUserId: b.user.id }, asCookie(a));

      expect(response.json()).toEqual({ status: 'pending' });
    });
  });

  describe('a cancel', () => {
    it('lets the sender take the request back: both sides see none', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await run(a, 'cancel', b);

      expect(response.json()).toEqual({ status: 'none' });
      expect(await statuses(a, b)).toEqual(['none', 'none']);
      expect(await friendshipRows(t.app, a, b)).toEqual([]);
    });
  });

  describe('a decline', () => {
    it('lets the receiver turn the request down: both sides see none', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await run(b, 'decline', a);

      expect(response.json()).toEqual({ status: 'none' });
      expect(await statuses(a, b)).toEqual(['none', 'none']);
    });

    it('may name the sender by username alone', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await postFriend(t.app, 'decline', { username: a.username }, asBearer(b));

      expect(response.json()).toEqual({ status: 'none' });
    });
  });

  describe('an accept', () => {
    it('makes the receiver and the sender friends: both sides see friends', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await run(b, 'accept', a);

      expect(response.json()).toEqual({ status: 'friends' });
      expect(await statuses(a, b)).toEqual(['friends', 'friends']);
    });

    it('may name the sender by username alone', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await postFriend(t.app, 'accept', { username: a.username }, asBearer(b));

      expect(response.json()).toEqual({ status: 'friends' });
    });
  });

  describe('an unfriend', () => {
    it('lets the friend who sent the request end the friendship: both see none', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);
      await run(b, 'accept', a);

      const response = await run(a, 'unfriend', b);

      expect(response.json()).toEqual({ status: 'none' });
      expect(await statuses(a, b)).toEqual(['none', 'none']);
      expect(await friendshipRows(t.app, a, b)).toEqual([]);
    });

    it('lets the friend who accepted end the friendship: both see none', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);
      await run(b, 'accept', a);

      const response = await postFriend(t.app, 'unfriend', { username: a.username }, asBearer(b));

      expect(response.json()).toEqual({ status: 'none' });
      expect(await statuses(a, b)).toEqual(['none', 'none']);
    });

    it('leaves the pair free to start again from either side', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);
      await run(b, 'accept', a);
      await run(a, 'unfriend', b);

      const response = await run(b, 'request', a);

      expect(response.json()).toEqual({ status: 'pending' });
      expect(await statuses(a, b)).toEqual(['incoming', 'pending']);
    });
  });

  describe('GET /api/users/friends/status', () => {
    it('answers none for two strangers, by user id', async () => {
      const [a, b] = await pair();

      const response = await getFriendStatus(t.app, asBearer(a), { userId: b.user.id });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'none' });
    });

    it('finds the other member by username, whatever its case', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      expect(await friendStatus(t.app, a, { username: b.username.toUpperCase() })).toBe('pending');
      expect(await friendStatus(t.app, b, { username: a.username })).toBe('incoming');
    });

    it('answers self for the member themself, by id and by username', async () => {
      const [a] = await pair();

      expect(await friendStatus(t.app, a, { userId: a.user.id })).toBe('self');
      expect(await friendStatus(t.app, a, { username: a.username })).toBe('self');
    });
  });

  describe('repeating a call', () => {
    it('answers pending to a second request and keeps one row', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await run(a, 'request', b);

      expect(response.json()).toEqual({ status: 'pending' });
      expect(await friendshipRows(t.app, a, b)).toHaveLength(1);
    });

    it('answers friends to a request between friends', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);
      await run(b, 'accept', a);

      expect((await run(a, 'request', b)).json()).toEqual({ status: 'friends' });
      expect((await run(b, 'request', a)).json()).toEqual({ status: 'friends' });
    });

    it('answers friends to a second accept', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);
      await run(b, 'accept', a);

      expect((await run(b, 'accept', a)).json()).toEqual({ status: 'friends' });
    });

    it.each(['cancel', 'decline', 'unfriend'] as const)(
      'answers none to a %s when there is nothing between the two',
      async (action) => {
        const [a, b] = await pair();

        const response = await run(a, action, b);

        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ status: 'none' });
        expect(await friendshipRows(t.app, a, b)).toEqual([]);
      },
    );

    it('answers none to a second cancel', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);
      await run(a, 'cancel', b);

      expect((await run(a, 'cancel', b)).json()).toEqual({ status: 'none' });
    });
  });

  describe('crossing requests', () => {
    it('makes friends when the receiver sends a request back instead of accepting', async () => {
      const [a, b] = await pair();
      await run(a, 'request', b);

      const response = await run(b, 'request', a);

      expect(response.json()).toEqual({ status: 'friends' });
      expect(await statuses(a, b)).toEqual(['friends', 'friends']);
      const rows = await friendshipRows(t.app, a, b);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'accepted', requester_id: a.user.id });
    });
  });
});
