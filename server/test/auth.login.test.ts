import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../src/contracts/user.ts';
import {
  type Member,
  postLogin,
  sessionsOf,
  sha256,
  signupUser,
  forEachApp,
  getMe,
} from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

forEachApp((t) => {
  let member: Member;

  beforeAll(async () => {
    member = await signupUser(t.app);
  });

  describe('POST /api/auth/login', () => {
    it('logs in by username typed in another case', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username.toUpperCase(),
        password: member.password,
      });

      expect(response.statusCode).toBe(200);
      const body = response.json<AuthResponse>();
      expect(body.user.id).toBe(member.user.id);
      expect(body.token).toMatch(/^[\w-]{43}$/);
    });

    it('logs in by email typed in another case, with spaces around it', async () => {
      const response = await postLogin(t.app, {
        identifier: `  ${member.email.toUpperCase()} `,
        password: member.password,
      });

      expect(response.statusCode).toBe(200);
      expect(response.json<AuthResponse>().user.username).toBe(member.username);
    });

    it('answers 401 for a wrong password', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: 'Wrong#Pass1',
      });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Wrong username/email or password.' });
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('answers an unknown account with the same 401 as a wrong password', async () => {
      const response = await postLogin(t.app, {
        identifier: 'nobody_here',
        password: member.password,
      });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Wrong username/email or password.' });
    });

    it('does not accept the password in another case', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password.toUpperCase(),
      });

      expect(response.statusCode).toBe(401);
    });

    it.each([
      { when: 'the identifier is missing', body: { password: 'Orbit#Pass1' } },
      { when: 'the identifier is blank', body: { identifier: '   ', password: 'Orbit#Pass1' } },
      { when: 'the password is missing', body: { identifier: 'someone' } },
      { when: 'the body is empty', body: {} },
    ])('answers 400 "Username/email and password are required." when $when', async ({ body }) => {
      const response = await postLogin(t.app, body);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Username/email and password are required.' });
    });
  });

  describe('sessions made by login', () => {
    it('sets a cookie expiring in 30 days when remember is true', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
        remember: true,
      });

      const cookie = response.cookies.find((item) => item.name === 'orbit_session');
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe('Lax');
      const days = ((cookie?.expires?.getTime() ?? 0) - Date.now()) / DAY;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    });

    it('keeps a remembered session on the server for 30 days', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
        remember: true,
      });

      const id = sha256(response.json<AuthResponse>().token);
      const session = (await sessionsOf(t.app, member.user.id)).find((row) => row.id === id);
      expect(session?.remember).toBe(1);
      const lifetime =
        Date.parse(session?.expires_at ?? '') - Date.parse(session?.created_at ?? '');
      expect(lifetime).toBe(30 * DAY);
    });

    it('sets a browser-session cookie with no Expires or Max-Age when remember is false', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
        remember: false,
      });

      const header = String(response.headers['set-cookie']);
      expect(header).toMatch(/^orbit_session=[\w-]{43};/);
      expect(header).toMatch(/; HttpOnly/i);
      expect(header).toMatch(/; SameSite=Lax/i);
      expect(header).not.toMatch(/Max-Age|Expires/i);
    });

    it('expires a session that is not remembered 24 hours after login', async () => {
      const before = Date.now();
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
      });

      const id = sha256(response.json<AuthResponse>().token);
      const session = (await sessionsOf(t.app, member.user.id)).find((row) => row.id === id);
      expect(session?.remember).toBe(0);
      const expiresAt = Date.parse(session?.expires_at ?? '');
      expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * HOUR);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
    });

    it('stores the session token only as its SHA-256 hash', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
      });
      const { token } = response.json<AuthResponse>();

      const ids = (await sessionsOf(t.app, member.user.id)).map((row) => row.id);
      expect(ids).toContain(sha256(token));
      expect(ids).not.toContain(token);
      const stored = await t.app.db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', token)
        .execute();
      expect(stored).toEqual([]);
    });

    it('hands out a different token on every login', async () => {
      const first = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
      });
      const second = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
      });

      expect(first.json<AuthResponse>().token).not.toBe(second.json<AuthResponse>().token);
    });

    it('refuses a session past its expiry', async () => {
      const response = await postLogin(t.app, {
        identifier: member.username,
        password: member.password,
      });
      const { token } = response.json<AuthResponse>();
      await t.app.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', sha256(token))
        .execute();

      const me = await getMe(t.app, { authorization: `Bearer ${token}` });
      expect(me.json()).toEqual({ user: null });
    });
  });
});
