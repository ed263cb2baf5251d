import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../src/contracts/user.ts';
import {
  ORIGIN,
  PASSWORD,
  SECURITY_ANSWER,
  postSignup,
  sha256,
  signupUser,
  uniqueUsername,
  forEachApp,
} from './helpers.ts';

/** The local calendar date `years` ago, shifted by `days`, as YYYY-MM-DD (the age rule uses local dates). */
function birthdayYearsAgo(years: number, days = 0): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const TWENTY_SIX_INTERESTS = Array.from({ length: 26 }, (_, index) => `Interest${index}`).join(',');

forEachApp((t) => {
  describe('POST /api/auth/signup', () => {
    it('creates the member and answers 201 with the user and a token', async () => {
      const username = uniqueUsername('Ada');
      const response = await postSignup(t.app, {
        username,
        firstName: 'Ada',
        lastName: 'Lovelace',
      });

      expect(response.statusCode).toBe(201);
      const body = response.json<AuthResponse>();
      expect(body.token).toMatch(/^[\w-]{43}$/);
      expect(body.user).toMatchObject({
        username,
        email: `${username}@example.test`,
        fullName: 'Ada Lovelace',
        birthday: '1990-05-17',
        interests: ['Tech', 'Music'],
        theme: 'normal1',
        securityQuestion: 'First rocket you built?',
      });
      expect(body.user.profileImage).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
      expect(response.body).not.toMatch(/password|answer_hash|Saturn/i);
    });

    it('sets an httpOnly SameSite=Lax session cookie that ends with the browser session', async () => {
      const response = await postSignup(t.app);

      const header = String(response.headers['set-cookie']);
      expect(header).toMatch(/^orbit_session=[\w-]{43};/);
      expect(header).toMatch(/; HttpOnly/i);
      expect(header).toMatch(/; SameSite=Lax/i);
      expect(header).toMatch(/; Path=\//);
      expect(header).not.toMatch(/Max-Age|Expires/i);
      expect(header).toContain(response.json<AuthResponse>().token);
    });

    it('sets a cookie that lasts 30 days when remember is true', async () => {
      const response = await postSignup(t.app, { remember: 'true' });

      const cookie = response.cookies.find((item) => item.name === 'orbit_session');
      const days = ((cookie?.expires?.getTime() ?? 0) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    });

    it('serves the stored avatar as a WebP image under /uploads', async () => {
      const member = await signupUser(t.app);

      const response = await t.app.inject({ method: 'GET', url: member.user.profileImage });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
    });

    it('stores the password and the security answer only as argon2id hashes', async () => {
      const member = await signupUser(t.app);

      const row = await t.app.db
        .selectFrom('users')
        .select(['password_hash', 'security_answer_hash'])
        .where('id', '=', member.user.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.security_answer_hash).toMatch(/^\$argon2id\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
      expect(row.security_answer_hash).not.toContain(SECURITY_ANSWER);
    });

    it('stores a session under the SHA-256 of the token it hands out', async () => {
      const member = await signupUser(t.app);

      const sessions = await t.app.db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', member.user.id)
        .execute();
      expect(sessions.map((session) => session.id)).toEqual([sha256(member.token)]);
    });
  });

  describe('signup validation', () => {
    it.each([
      { when: 'the username is empty', fields: { username: '' }, message: 'Username required' },
      { when: 'the username is blank', fields: { username: '   ' }, message: 'Username required' },
      {
        when: 'the username is two characters',
        fields: { username: 'ab' },
        message: 'Min 3 chars',
      },
      {
        when: 'the username has a space and a symbol',
        fields: { username: 'bad name!' },
        message: '3–20 chars: letters, numbers, . _ -',
      },
      {
        when: 'the username is 21 characters',
        fields: { username: 'a'.repeat(21) },
        message: '3–20 chars: letters, numbers, . _ -',
      },
      { when: 'the email is empty', fields: { email: '' }, message: 'Email required' },
      {
        when: 'the email has no domain',
        fields: { email: 'ada@' },
        message: 'Enter a valid email address.',
      },
      {
        when: 'the email has a space',
        fields: { email: 'ada lovelace@x.io' },
        message: 'Enter a valid email address.',
      },
      { when: 'the birthday is empty', fields: { birthday: '' }, message: 'Birthday required' },
      {
        when: 'the member turns 18 tomorrow',
        fields: { birthday: birthdayYearsAgo(18, 1) },
        message: '18+ only',
      },
      { when: 'the password is empty', fields: { password: '' }, message: 'Required' },
      {
        when: 'the password has no symbol',
        fields: { password: 'Orbit1234' },
        message: 'Password requirements not met',
      },
      {
        when: 'the password is 7 characters',
        fields: { password: 'Or#bit1' },
        message: 'Password requirements not met',
      },
      {
        when: 'the password has no uppercase',
        fields: { password: 'orbit#pass1' },
        message: 'Password requirements not met',
      },
      {
        when: 'there is no profile image',
        fields: { profilePic: null },
        message: 'Profile image required',
      },
      {
        when: 'there are 26 interests',
        fields: { interests: TWENTY_SIX_INTERESTS },
        message: 'Choose at most 25 interests.',
      },
    ])('answers 400 "$message" when $when', async ({ fields, message }) => {
      const response = await postSignup(t.app, fields);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: message });
    });

    it('accepts a member who turned 18 today', async () => {
      const response = await postSignup(t.app, { birthday: birthdayYearsAgo(18) });

      expect(response.statusCode).toBe(201);
    });

    it('accepts exactly 25 interests', async () => {
      const interests = Array.from({ length: 25 }, (_, index) => `Interest${index}`);
      const response = await postSignup(t.app, { interests: interests.join(',') });

      expect(response.statusCode).toBe(201);
      expect(response.json<AuthResponse>().user.interests).toEqual(interests);
    });

    it('answers 400 when the form is sent as JSON instead of multipart', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: { origin: ORIGIN },
        payload: {
          username: uniqueUsername(),
          email: 'json@example.test',
          password: PASSWORD,
          birthday: '1990-01-01',
        },
      });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Send this form as multipart/form-data.' });
    });
  });

  describe('signup uniqueness', () => {
    it('answers 409 "Username already taken" for a username that differs only in case', async () => {
      const first = await signupUser(t.app);

      const response = await postSignup(t.app, {
        username: first.username.toUpperCase(),
        email: `${uniqueUsername()}@example.test`,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'Username already taken' });
    });

    it('answers 409 "Email already in use" for an email that differs only in case', async () => {
      const first = await signupUser(t.app);

      const response = await postSignup(t.app, { email: first.email.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ error: 'Email already in use' });
    });
  });
});
