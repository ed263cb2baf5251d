/** Text no column may hold is refused with a 400 in one place, on both databases (docs/product.md "Errors"). */
import { describe, expect, it } from 'vitest';
import {
  expectError,
  ORIGIN,
  asBearer,
  asCookie,
  forEachApp,
  postLogin,
  postSignup,
  signupMembers,
  markRead,
  patchProfile,
} from './helpers.ts';

forEachApp((t) => {
  describe('control characters and broken characters', () => {
    it.each([
      ['a NUL byte', 'ada\u0000', 'identifier can’t contain control characters.'],
      ['an escape character', 'ada\u001b[2J', 'identifier can’t contain control characters.'],
      ['half a character', 'ada\ud800', 'identifier contains a broken character.'],
    ])('answers 400 to a JSON body holding %s', async (_name, identifier, error) => {
      const response = await postLogin(t.app, { identifier, password: 'x' });

      expectError(response, 400, error);
    });

    it('answers 400 to a query holding a NUL byte', async () => {
      const [a] = await signupMembers(t.app, 1);

      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/search?q=ad%00a',
        headers: asBearer(a),
      });

      expectError(response, 400, 'q can’t contain control characters.');
    });

    it('answers 400 to a form field holding a NUL byte, and makes no member', async () => {
      const response = await postSignup(t.app, { username: 'nul.member', firstName: 'A\u0000a' });

      expectError(response, 400, 'firstName can’t contain control characters.');
      const taken = await t.app.inject({
        method: 'GET',
        url: '/api/check-username?username=nul.member',
      });
      expect(taken.json()).toEqual({ available: true });
    });

    it('keeps tabs and line breaks in text that allows them', async () => {
      const [a] = await signupMembers(t.app, 1);

      const response = await patchProfile(
        t.app,
        { ...asCookie(a), origin: ORIGIN },
        { favoriteQuote: 'Ad astra\n\tper aspera' },
      );

      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ user: { favoriteQuote: string } }>().user.favoriteQuote).toBe(
        'Ad astra\n\tper aspera',
      );
    });
  });

  describe('notification ids beyond the database’s integers', () => {
    const BEYOND = String(2 ** 31);

    it('marks nothing read for such an id', async () => {
      const [a] = await signupMembers(t.app, 1);

      const response = await markRead(t.app, { ...asBearer(a), origin: ORIGIN }, { ids: [BEYOND] });

      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true, unread: 1 });
    });

    it('answers 404 to deleting such an id', async () => {
      const [a] = await signupMembers(t.app, 1);

      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/notifications/${BEYOND}`,
        headers: { ...asBearer(a), origin: ORIGIN },
      });

      expectError(response, 404, 'No such notification.');
    });

    it('reads a page before such an id as the newest page', async () => {
      const [a] = await signupMembers(t.app, 1);

      const response = await t.app.inject({
        method: 'GET',
        url: `/api/notifications?before=${BEYOND}`,
        headers: asBearer(a),
      });

      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<{ notifications: unknown[] }>().notifications).toHaveLength(1);
    });
  });
});
