import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contracts/user.ts';
import {
  ORIGIN,
  type Member,
  asBearer,
  asCookie,
  getMe,
  loginAs,
  sessionsOf,
  sha256,
  signupUser,
  forEachApp,
  postLogout,
} from './helpers.ts';

forEachApp((t) => {
  const logout = (member: Member) => postLogout(t.app, asCookie(member));
  const tokenBridge = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/auth/token-bridge', headers });

  describe('GET /api/auth/me', () => {
    it('answers the member behind the session cookie', async () => {
      const member = await signupUser(t.app);

      const response = await getMe(t.app, { cookie: member.cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: User }>().user).toEqual(member.user);
    });

    it('answers the member behind a bearer token', async () => {
      const member = await signupUser(t.app);

      const response = await getMe(t.app, asBearer(member));
      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: User }>().user.id).toBe(member.user.id);
    });

    it('is never cached', async () => {
      const member = await signupUser(t.app);

      const response = await getMe(t.app, asBearer(member));
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('answers 200 {user: null} without credentials', async () => {
      const response = await getMe(t.app);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: null });
    });

    it('answers {user: null} for a token that was never issued', async () => {
      const response = await getMe(t.app, { authorization: 'Bearer not-a-real-token' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ user: null });
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the session so the same cookie gets 401 afterwards', async () => {
      const member = await signupUser(t.app);

      const response = await logout(member);
      expect(response.statusCode).toBe(200);
      expect((await getMe(t.app, { cookie: member.cookie })).json()).toEqual({ user: null });
      expect((await getMe(t.app, asBearer(member))).json()).toEqual({ user: null });
    });

    it('deletes the session row', async () => {
      const member = await signupUser(t.app);

      await logout(member);
      const ids = (await sessionsOf(t.app, member.user.id)).map((row) => row.id);
      expect(ids).not.toContain(sha256(member.token));
    });

    it('clears the session cookie', async () => {
      const member = await signupUser(t.app);

      const response = await logout(member);
      const cookie = response.cookies.find((item) => item.name === 'orbit_session');
      expect(cookie?.value).toBe('');
      expect(cookie?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
      expect(cookie?.path).toBe('/');
    });

    it('leaves the member’s other sessions signed in', async () => {
      const member = await signupUser(t.app);
      const other = await loginAs(t.app, member);

      await logout(member);
      expect((await getMe(t.app, asBearer(other))).statusCode).toBe(200);
    });

    it('succeeds and clears the cookie even without a session', async () => {
      const response = await postLogout(t.app, { origin: ORIGIN });

      expect(response.statusCode).toBe(200);
      expect(response.cookies.find((item) => item.name === 'orbit_session')?.value).toBe('');
    });
  });

  describe('GET /api/auth/token-bridge', () => {
    it('hands a cookie-authenticated page the same token as a bearer', async () => {
      const member = await signupUser(t.app);

      const response = await tokenBridge({ cookie: member.cookie });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ token: member.token });
      expect((await getMe(t.app, asBearer(response.json<{ token: string }>()))).statusCode).toBe(
        200,
      );
    });

    it('answers 401 without a cookie', async () => {
      const response = await tokenBridge({});

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Please sign in.' });
    });

    it('answers 401 to a bearer token alone', async () => {
      const member = await signupUser(t.app);

      expect((await tokenBridge(asBearer(member))).statusCode).toBe(401);
    });

    it('answers 401 for a cookie whose session was logged out', async () => {
      const member = await signupUser(t.app);
      await logout(member);

      expect((await tokenBridge({ cookie: member.cookie })).statusCode).toBe(401);
    });
  });
});
