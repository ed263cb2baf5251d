import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser, User } from '../../src/contracts/user.ts';
import { type Member, asBearer, asCookie, signupUser, forEachApp } from './helpers.ts';

const THEME_ERROR = 'Theme must be one of: light, normal1, normal2, dark, custom.';

forEachApp((t) => {
  const usersMe = (member: Member) =>
    t.app.inject({ method: 'GET', url: '/api/users/me', headers: asBearer(member) });
  const saveTheme = (member: Member, url: string, theme: unknown) =>
    t.app.inject({ method: 'PUT', url, headers: asCookie(member), payload: { theme } });

  describe('GET /api/users/me', () => {
    it('answers the member with the default theme normal1', async () => {
      const member = await signupUser(t.app);

      const response = await usersMe(member);

      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: User }>().user).toMatchObject({
        id: member.user.id,
        theme: 'normal1',
      });
    });

    it('answers 401 without a session', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/users/me' })).statusCode).toBe(401);
    });
  });

  describe('saving the theme', () => {
    it('saves the theme through PUT /api/users/theme', async () => {
      const member = await signupUser(t.app);

      const response = await saveTheme(member, '/api/users/theme', 'dark');

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ theme: 'dark' });
      expect((await usersMe(member)).json<{ user: User }>().user.theme).toBe('dark');
    });

    it('saves the theme through PUT /api/users/me', async () => {
      const member = await signupUser(t.app);

      const response = await saveTheme(member, '/api/users/me', 'normal2');

      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: User }>().user.theme).toBe('normal2');
      expect((await usersMe(member)).json<{ user: User }>().user.theme).toBe('normal2');
    });

    it.each(['/api/users/theme', '/api/users/me'])(
      'answers 400 naming the themes for an unknown theme on %s',
      async (url) => {
        const member = await signupUser(t.app);

        const response = await saveTheme(member, url, 'neon');

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: THEME_ERROR });
        expect((await usersMe(member)).json<{ user: User }>().user.theme).toBe('normal1');
      },
    );

    it('answers 400 naming the themes when no theme is sent', async () => {
      const member = await signupUser(t.app);

      const response = await saveTheme(member, '/api/users/theme', undefined);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: THEME_ERROR });
    });
  });

  describe('GET /api/users/profile/:username', () => {
    let owner: Member;
    let viewer: Member;
    beforeAll(async () => {
      owner = await signupUser(t.app, { favoriteQuote: 'To the stars.' });
      viewer = await signupUser(t.app);
    });

    const profile = (username: string, headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `/api/users/profile/${encodeURIComponent(username)}`,
        headers,
      });

    it('answers the public member, found by username in any case', async () => {
      const response = await profile(owner.username.toUpperCase(), asBearer(viewer));

      expect(response.statusCode).toBe(200);
      const user = response.json<{ user: PublicUser }>().user;
      expect(user).toMatchObject({
        id: owner.user.id,
        username: owner.username,
        fullName: owner.user.fullName,
        profileImage: owner.user.profileImage,
        favoriteQuote: 'To the stars.',
        theme: 'normal1',
      });
    });

    it('leaves out email, birthday and every other private field', async () => {
      const response = await profile(owner.username, asBearer(viewer));

      const user = response.json<Record<string, unknown>>().user as Record<string, unknown>;
      for (const field of [
        'email',
        'birthday',
        'interests',
        'referral',
        'referralCode',
        'securityQuestion',
      ]) {
        expect(user).not.toHaveProperty(field);
      }
      expect(response.body).not.toContain(owner.email);
    });

    it('answers 404 for an unknown username', async () => {
      const response = await profile('nobody_at_all', asBearer(viewer));

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'No member with that username.' });
    });

    it('answers 401 without a session', async () => {
      expect((await profile(owner.username, {})).statusCode).toBe(401);
    });
  });
});
