/** Every transition of docs/product.md "Friends", from both sides, each call answering {status} in the client's words. */
import type { LightMyRequestResponse } from 'fastify';
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
  friendPair,
  requestedPair,
  signupPair,
  getFriendStatus,
} from './helpers.ts';

forEachApp((t) => {
  /** Two fresh members: `a` usually acts first. */
  const pair = () => signupPair(t.app);
  const run = (actor: Member, action: Parameters<typeof friendAction>[2], other: Member) =>
    friendAction(t.app, actor, action, other);
  const requested = () => requestedPair(t.app);
  const befriended = () => friendPair(t.app);
  const statuses = async (a: Member, b: Member) => [
    await friendStatus(t.app, a, b),
    await friendStatus(t.app, b, a),
  ];
  /** Expects the call to have answered none, with nothing left between the two members. */
  const expectNothingBetween = async (response: LightMyRequestResponse, a: Member, b: Member) => {
    expect(response.json()).toEqual({ status: 'none' });
    expect(await statuses(a, b)).toEqual(['none', 'none']);
    expect(await friendshipRows(t.app, a, b)).toEqual([]);
  };

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
      const [a, b] = await requested();

      const response = await run(a, 'cancel', b);

      await expectNothingBetween(response, a, b);
    });
  });

  describe.each([
    {
      name: 'a decline',
      action: 'decline',
      does: 'lets the receiver turn the request down',
      status: 'none',
    },
    {
      name: 'an accept',
      action: 'accept',
      does: 'makes the receiver and the sender friends',
      status: 'friends',
    },
  ] as const)('$name', ({ action, does, status }) => {
    it(`${does}: both sides see ${status}`, async () => {
      const [a, b] = await requested();

      const response = await run(b, action, a);

      expect(response.json()).toEqual({ status });
      expect(await statuses(a, b)).toEqual([status, status]);
    });

    it('may name the sender by username alone', async () => {
      const [a, b] = await requested();

      const response = await postFriend(t.app, action, { username: a.username }, asBearer(b));

      expect(response.json()).toEqual({ status });
    });
  });

  describe('an unfriend', () => {
    it('lets the friend who sent the request end the friendship: both see none', async () => {
      const [a, b] = await befriended();

      const response = await run(a, 'unfriend', b);

      await expectNothingBetween(response, a, b);
    });

    it('lets the friend who accepted end the friendship: both see none', async () => {
      const [a, b] = await befriended();

      const response = await postFriend(t.app, 'unfriend', { username: a.username }, asBearer(b));

      await expectNothingBetween(response, a, b);
    });

    it('leaves the pair free to start again from either side', async () => {
      const [a, b] = await befriended();
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
      const [a, b] = await requested();

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
      const [a, b] = await requested();

      const response = await run(a, 'request', b);

      expect(response.json()).toEqual({ status: 'pending' });
      expect(await friendshipRows(t.app, a, b)).toHaveLength(1);
    });

    it('answers friends to a request between friends', async () => {
      const [a, b] = await befriended();

      expect((await run(a, 'request', b)).json()).toEqual({ status: 'friends' });
      expect((await run(b, 'request', a)).json()).toEqual({ status: 'friends' });
    });

    it('answers friends to a second accept', async () => {
      const [a, b] = await befriended();

      expect((await run(b, 'accept', a)).json()).toEqual({ status: 'friends' });
    });

    it.each(['cancel', 'decline', 'unfriend'] as const)(
      'answers none to a %s when there is nothing between the two',
      async (action) => {
        const [a, b] = await pair();

        const response = await run(a, action, b);

        expect(response.statusCode).toBe(200);
        await expectNothingBetween(response, a, b);
      },
    );

    it('answers none to a second cancel', async () => {
      const [a, b] = await requested();
      await run(a, 'cancel', b);

      expect((await run(a, 'cancel', b)).json()).toEqual({ status: 'none' });
    });
  });

  describe('crossing requests', () => {
    it('makes friends when the receiver sends a request back instead of accepting', async () => {
      const [a, b] = await requested();

      const response = await run(b, 'request', a);

      expect(response.json()).toEqual({ status: 'friends' });
      expect(await statuses(a, b)).toEqual(['friends', 'friends']);
      const rows = await friendshipRows(t.app, a, b);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: 'accepted', requester_id: a.user.id });
    });
  });
});
