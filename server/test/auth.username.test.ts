import { beforeAll, describe, expect, it } from 'vitest';
import { type Member, asBearer, signupUser, uniqueUsername, forEachApp } from './helpers.ts';

forEachApp((t) => {
  let member: Member;
  let other: Member;

  beforeAll(async () => {
    member = await signupUser(t.app);
    other = await signupUser(t.app);
  });

  describe('GET /api/check-username (signup form)', () => {
    const check = (username: string) =>
      t.app.inject({ method: 'GET', url: '/api/check-username', query: { username } });

    it('answers available for a free name, without signing in', async () => {
      const response = await check(uniqueUsername('free'));

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ available: true });
    });

    it('answers not available for a taken name typed in another case', async () => {
      const response = await check(member.username.toUpperCase());

      expect(response.json()).toEqual({ available: false });
    });

    it.each([
      { when: 'shorter than 3 characters', username: 'ab' },
      { when: 'holding a space', username: 'bad name' },
      { when: 'longer than 20 characters', username: 'a'.repeat(21) },
      { when: 'empty', username: '' },
    ])('answers not available for a name $when', async ({ username }) => {
      const response = await check(username);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ available: false });
    });
  });

  describe('GET /api/auth/check-username (settings form)', () => {
    const check = (who: Member, username: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/auth/check-username',
        query: { username },
        headers: asBearer(who),
      });

    it('answers available with no reason for a free name', async () => {
      const response = await check(member, uniqueUsername('free'));

      expect(response.json()).toEqual({ available: true, reason: null });
    });

    it('answers taken for another member’s name in another case', async () => {
      const response = await check(member, other.username.toUpperCase());

      expect(response.json()).toEqual({ available: false, reason: 'taken' });
    });

    it('answers invalid for a name outside 3–20 letters, numbers, . _ -', async () => {
      const response = await check(member, 'no spaces!');

      expect(response.json()).toEqual({ available: false, reason: 'invalid' });
    });

    it('counts the member’s own current name, in another case, as available', async () => {
      const response = await check(member, member.username.toUpperCase());

      expect(response.json()).toEqual({ available: true, reason: 'current' });
    });
  });
});
