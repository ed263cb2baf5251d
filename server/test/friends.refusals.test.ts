/** Every friend call a member may not make, and what each answers (docs/decisions.md "Friend calls answer the status"). */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FRIEND_ACTIONS,
  type Member,
  ORIGIN,
  TARGET_FIELD,
  asBearer,
  expectError,
  friendAction,
  friendStatus,
  friendshipRows,
  postFriend,
  signupMembers,
  forEachApp,
  requestedPair,
  signupPair,
  getFriendStatus,
} from './helpers.ts';

const EVIL = 'https://evil.example';
const NAME_THE_MEMBER = 'Name the member by user id or username.';

forEachApp((t) => {
  const pair = () => signupPair(t.app);
  const pendingPair = () => requestedPair(t.app);

  describe('acting on oneself', () => {
    let me: Member;
    beforeAll(async () => {
      [me] = await signupMembers(t.app, 1);
    });

    it.each(FRIEND_ACTIONS)('answers 400 "Cannot friend yourself" to %s by id', async (action) => {
      const response = await postFriend(
        t.app,
        action,
        { [TARGET_FIELD[action]]: me.user.id },
        asBearer(me),
      );

      expectError(response, 400, 'Cannot friend yourself');
    });

    it.each(FRIEND_ACTIONS)(
      'answers 400 "Cannot friend yourself" to %s by username',
      async (action) => {
        const response = await postFriend(t.app, action, { username: me.username }, asBearer(me));

        expectError(response, 400, 'Cannot friend yourself');
      },
    );
  });

  describe('naming a member who does not exist', () => {
    it.each(FRIEND_ACTIONS)('answers 404 {error} to %s', async (action) => {
      const [a] = await pair();

      const byId = await postFriend(
        t.app,
        action,
        { [TARGET_FIELD[action]]: randomUUID() },
        asBearer(a),
      );
      const byName = await postFriend(t.app, action, { username: 'nobody.here' }, asBearer(a));

      expect(byId.statusCode).toBe(404);
      expect(byName.statusCode).toBe(404);
      expect(Object.keys(byId.json<object>())).toEqual(['error']);
    });

    it('answers 404 to a status question', async () => {
      const [a] = await pair();

      const response = await getFriendStatus(t.app, asBearer(a), { username: 'nobody.here' });

      expect(response.statusCode).toBe(404);
    });
  });

  describe('acting from the wrong side', () => {
    it.each([
      {
        who: 'receiver',
        action: 'cancel',
        error: 'Only the member who sent a request can cancel it.',
      },
      {
        who: 'sender',
        action: 'accept',
        error: 'Only the member who received a request can accept it.',
      },
      {
        who: 'sender',
        action: 'decline',
        error: 'Only the member who received a request can decline it.',
      },
    ] as const)(
      'answers 403 when the $who tries to $action the request, and keeps it pending',
      async ({ who, action, error }) => {
        const [a, b] = await pendingPair();
        const [actor, other] = who === 'sender' ? [a, b] : [b, a];

        const response = await friendAction(t.app, actor, action, other);

        expectError(response, 403, error);
        expect([await friendStatus(t.app, a, b), await friendStatus(t.app, b, a)]).toEqual([
          'pending',
          'incoming',
        ]);
      },
    );

    it.each(['sender', 'receiver'] as const)(
      'answers 403 when the %s tries to unfriend while the request is only pending',
      async (side) => {
        const [a, b] = await pendingPair();
        const [actor, other] = side === 'sender' ? [a, b] : [b, a];

        const response = await friendAction(t.app, actor, 'unfriend', other);

        expectError(response, 403, 'You are not friends.');
        expect(await friendshipRows(t.app, a, b)).toHaveLength(1);
      },
    );

    it.each(['cancel', 'decline'] as const)(
      'answers 403 to a %s between friends',
      async (action) => {
        const [a, b] = await pendingPair();
        await friendAction(t.app, b, 'accept', a);

        const response = await friendAction(
          t.app,
          action === 'cancel' ? a : b,
          action,
          action === 'cancel' ? b : a,
        );

        expectError(response, 403, 'You are already friends.');
        expect(await friendStatus(t.app, a, b)).toBe('friends');
      },
    );

    it('answers 404 to an accept when there is no request', async () => {
      const [a, b] = await pair();

      const response = await friendAction(t.app, a, 'accept', b);

      expectError(response, 404, 'There is no friend request to accept.');
      expect(await friendshipRows(t.app, a, b)).toEqual([]);
    });
  });

  describe('a call that names nobody', () => {
    it.each(FRIEND_ACTIONS)('answers 400 {error} to %s with an empty body', async (action) => {
      const [a] = await pair();

      const response = await postFriend(t.app, action, {}, asBearer(a));

      expectError(response, 400, NAME_THE_MEMBER);
    });

    it.each([
      ['request', 'fromUserId'],
      ['request', 'userId'],
      ['accept', 'toUserId'],
      ['decline', 'userId'],
      ['unfriend', 'toUserId'],
    ] as const)(
      'answers 400 to %s naming the member as %s, a field that call does not have',
      async (action, field) => {
        const [a, b] = await pair();

        const response = await postFriend(t.app, action, { [field]: b.user.id }, asBearer(a));

        expectError(response, 400, NAME_THE_MEMBER);
        expect(await friendStatus(t.app, a, b)).toBe('none');
      },
    );

    it('answers 400 to a status question without userId or username', async () => {
      const [a] = await pair();

      const response = await getFriendStatus(t.app, asBearer(a));

      expectError(response, 400, NAME_THE_MEMBER);
    });
  });

  describe('without a session', () => {
    it.each(FRIEND_ACTIONS)('answers 401 to POST %s', async (action) => {
      const [, b] = await pair();

      const response = await postFriend(t.app, action, { [TARGET_FIELD[action]]: b.user.id }, {});

      expectError(response, 401, 'Please sign in.');
    });

    it.each(['status?username=x', 'counts', 'incoming', 'outgoing', 'list'])(
      'answers 401 to GET %s',
      async (path) => {
        const response = await t.app.inject({ method: 'GET', url: `/api/users/friends/${path}` });

        expect(response.statusCode).toBe(401);
      },
    );
  });

  describe('a cookie call from a foreign page', () => {
    /** `a` asks `b` to be friends riding on the session cookie, with `origin` if given. */
    const requestByCookie = (a: Member, b: Member, origin?: string) =>
      postFriend(
        t.app,
        'request',
        { toUserId: b.user.id },
        { cookie: a.cookie, ...(origin ? { origin } : {}) },
      );

    it('answers 403 and sends no request', async () => {
      const [a, b] = await pair();

      const response = await requestByCookie(a, b, EVIL);

      expectError(response, 403, 'Request origin not allowed.');
      expect(await friendshipRows(t.app, a, b)).toEqual([]);
    });

    it('answers 403 to an accept and leaves the request pending', async () => {
      const [a, b] = await pendingPair();

      const response = await postFriend(
        t.app,
        'accept',
        { fromUserId: a.user.id },
        { cookie: b.cookie, origin: EVIL },
      );

      expect(response.statusCode).toBe(403);
      expect(await friendStatus(t.app, b, a)).toBe('incoming');
    });

    it('answers 403 to a cookie call that names no origin at all', async () => {
      const [a, b] = await pair();

      const response = await requestByCookie(a, b);

      expect(response.statusCode).toBe(403);
      expect(await friendshipRows(t.app, a, b)).toEqual([]);
    });

    it('accepts the same cookie call from the allowed origin', async () => {
      const [a, b] = await pair();

      const response = await requestByCookie(a, b, ORIGIN);

      expect(response.json()).toEqual({ status: 'pending' });
    });
  });
});
