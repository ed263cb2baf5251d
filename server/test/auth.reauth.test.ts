/**
 * Changing what can take an account over needs the current password, and wrong current passwords
 * are counted per member (docs/decisions.md "Re-authentication", "Passwords and abuse").
 */
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contracts/user.ts';
import {
  type Member,
  SECURITY_ANSWER,
  SECURITY_QUESTION,
  asCookie,
  forEachApp,
  getMe,
  loginStatus,
  patchProfileForm,
  pngImage,
  signupUser,
  uniqueUsername,
  patchProfile,
  postReset,
} from './helpers.ts';

const WRONG = 'Wrong#Pass1';
const NEW_PASSWORD = 'Nebula#2025x';
const REQUIRED = 'Enter your current password.';
const NOT_CORRECT = 'Your current password is not correct.';

forEachApp((t) => {
  const patchJson = (member: Member, payload: Record<string, unknown>) =>
    patchProfile(t.app, asCookie(member), payload);

  const changePassword = (member: Member, currentPassword: string) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/auth/password',
      headers: asCookie(member),
      payload: { currentPassword, newPassword: NEW_PASSWORD },
    });

  const me = async (member: Member) =>
    (await getMe(t.app, { cookie: member.cookie })).json<{ user: User }>().user;

  const resetWith = (member: Member, answer: string) =>
    postReset(t.app, {}, { identifier: member.username, answer, newPassword: NEW_PASSWORD });

  describe('PATCH /api/auth/profile needs the current password', () => {
    const changes = [
      { what: 'the email', patch: () => ({ email: `${uniqueUsername('e')}@new.test` }) },
      { what: 'the security question', patch: () => ({ securityQuestion: 'First pet?' }) },
      { what: 'the security answer', patch: () => ({ securityAnswer: 'Laika' }) },
    ];

    it.each(changes)(`answers 400 "${REQUIRED}" for $what without it`, async ({ patch }) => {
      const member = await signupUser(t.app);

      const response = await patchJson(member, { ...patch(), firstName: 'Changed' });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: REQUIRED });
      expect(await me(member)).toMatchObject({
        email: member.email,
        securityQuestion: SECURITY_QUESTION,
        firstName: member.user.firstName,
      });
    });

    it.each(changes)(
      `answers 400 "${NOT_CORRECT}" for $what with a wrong one`,
      async ({ patch }) => {
        const member = await signupUser(t.app);

        const response = await patchJson(member, { ...patch(), currentPassword: WRONG });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: NOT_CORRECT });
        expect(await me(member)).toMatchObject({
          email: member.email,
          securityQuestion: SECURITY_QUESTION,
        });
      },
    );

    it('saves the email, question and answer with the right one', async () => {
      const member = await signupUser(t.app);
      const email = `${uniqueUsername('e')}@new.test`;

      const response = await patchJson(member, {
        email,
        securityQuestion: 'First pet?',
        securityAnswer: 'Laika',
        currentPassword: member.password,
      });

      expect(response.statusCode).toBe(200);
      expect(await me(member)).toMatchObject({ email, securityQuestion: 'First pet?' });
      expect((await resetWith(member, 'laika')).statusCode).toBe(200);
    });

    it('asks for it in a multipart form too', async () => {
      const member = await signupUser(t.app);

      const without = await patchProfileForm(t.app, member, { securityAnswer: 'Laika' });
      const wrong = await patchProfileForm(t.app, member, {
        email: `${uniqueUsername('e')}@new.test`,
        currentPassword: WRONG,
      });
      const right = await patchProfileForm(t.app, member, {
        securityAnswer: 'Laika',
        currentPassword: member.password,
      });

      expect([without.json(), wrong.json()]).toEqual([{ error: REQUIRED }, { error: NOT_CORRECT }]);
      expect(right.statusCode).toBe(200);
    });

    it('does not ask for it for names, quote, interests, theme, referral or the picture', async () => {
      const member = await signupUser(t.app);

      const json = await patchJson(member, {
        firstName: 'Grace',
        lastName: 'Hopper',
        favoriteQuote: 'Ad astra.',
        interests: ['Coding'],
        theme: 'dark',
        referral: 'FRIEND1',
        // The same email and question as stored are no change.
        email: member.email,
        securityQuestion: SECURITY_QUESTION,
      });
      const form = await patchProfileForm(t.app, member, {
        profilePic: { data: await pngImage(), filename: 'me.png', type: 'image/png' },
      });

      expect(json.statusCode, json.body).toBe(200);
      expect(form.statusCode, form.body).toBe(200);
    });

    it('keeps a stolen session from resetting the password through the security answer', async () => {
      const member = await signupUser(t.app);

      await patchJson(member, { securityAnswer: 'attacker knows this' });

      expect((await resetWith(member, 'attacker knows this')).statusCode).toBe(400);
      expect((await resetWith(member, SECURITY_ANSWER)).statusCode).toBe(200);
    });
  });

  describe('wrong current passwords are counted per member', () => {
    it('answers 429 with Retry-After after 5 wrong ones, even to the right one', async () => {
      const member = await signupUser(t.app);
      const wrongs = [];
      for (let index = 0; index < 5; index += 1)
        wrongs.push((await changePassword(member, WRONG)).statusCode);

      const blocked = await changePassword(member, member.password);

      expect(wrongs).toEqual([400, 400, 400, 400, 400]);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json<{ error: string }>().error).toMatch(
        /^Too many attempts\. Try again in \d+ seconds\.$/,
      );
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(await loginStatus(t.app, member, NEW_PASSWORD)).toBe(401);
    });

    it('counts the profile’s check and the password change together', async () => {
      const member = await signupUser(t.app);
      for (let index = 0; index < 3; index += 1)
        await patchJson(member, { securityAnswer: 'x', currentPassword: WRONG });
      for (let index = 0; index < 2; index += 1) await changePassword(member, WRONG);

      const blocked = await patchJson(member, {
        securityAnswer: 'x',
        currentPassword: member.password,
      });

      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBeDefined();
    });

    it('counts each member alone, and a right password starts the count again', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];
      for (let index = 0; index < 4; index += 1) await changePassword(member, WRONG);
      for (let index = 0; index < 5; index += 1) await changePassword(other, WRONG);

      const right = await patchJson(member, {
        securityAnswer: 'x',
        currentPassword: member.password,
      });
      for (let index = 0; index < 4; index += 1) await changePassword(member, WRONG);
      const stillRight = await changePassword(member, member.password);
      const otherBlocked = await changePassword(other, other.password);

      expect(right.statusCode).toBe(200);
      expect(stillRight.statusCode).toBe(200);
      expect(otherBlocked.statusCode).toBe(429);
    });
  });
});
