import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contracts/user.ts';
import {
  expectError,
  type Member,
  asCookie,
  getMe,
  pngImage,
  postLogin,
  signupUser,
  uniqueUsername,
  forEachApp,
  patchProfileForm,
  PASSWORD,
  patchProfile,
} from './helpers.ts';

forEachApp((t) => {
  const patchJson = (member: Member, payload: Record<string, unknown>) =>
    patchProfile(t.app, asCookie(member), payload);

  const patchForm = (member: Member, fields: Parameters<typeof patchProfileForm>[2]) =>
    patchProfileForm(t.app, member, fields);

  const uploadPath = (profileImage: string) =>
    path.join(t.config.uploadsDir, profileImage.replace(/^\/uploads\//, ''));

  describe('PATCH /api/auth/profile with JSON', () => {
    it('saves names, favorite quote, referral and interests and answers the updated user', async () => {
      const member = await signupUser(t.app);

      const response = await patchJson(member, {
        firstName: ' Grace ',
        lastName: 'Hopper',
        favoriteQuote: 'It is easier to ask forgiveness.',
        referral: 'ABCD2345',
        interests: ['Coding', 'Cosplay', 'Science'],
      });

      expect(response.statusCode).toBe(200);
      const expected = {
        firstName: 'Grace',
        lastName: 'Hopper',
        fullName: 'Grace Hopper',
        favoriteQuote: 'It is easier to ask forgiveness.',
        referral: 'ABCD2345',
        interests: ['Coding', 'Cosplay', 'Science'],
      };
      expect(response.json<{ user: User }>().user).toMatchObject(expected);
      expect(
        (await getMe(t.app, { cookie: member.cookie })).json<{ user: User }>().user,
      ).toMatchObject(expected);
    });

    it('changes the username and email so the member logs in with the new ones', async () => {
      const member = await signupUser(t.app);
      const username = uniqueUsername('New');

      const response = await patchJson(member, {
        username,
        email: `${username}@new.test`,
        currentPassword: member.password,
      });

      expect(response.json<{ user: User }>().user).toMatchObject({
        username,
        email: `${username}@new.test`,
      });
      const login = await postLogin(t.app, {
        identifier: `${username}@NEW.test`,
        password: member.password,
      });
      expect(login.statusCode).toBe(200);
    });

    it('lets the member change the case of their own username', async () => {
      const member = await signupUser(t.app);

      const response = await patchJson(member, { username: member.username.toUpperCase() });

      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: User }>().user.username).toBe(member.username.toUpperCase());
    });

    it('leaves fields it was not sent unchanged', async () => {
      const member = await signupUser(t.app);

      const response = await patchJson(member, { favoriteQuote: 'Only this.' });

      expect(response.json<{ user: User }>().user).toMatchObject({
        username: member.username,
        email: member.email,
        firstName: member.user.firstName,
        interests: member.user.interests,
        profileImage: member.user.profileImage,
      });
    });

    it('answers 409 "Username already taken" for another member’s username in another case', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];

      const response = await patchJson(member, { username: other.username.toUpperCase() });

      expectError(response, 409, 'Username already taken');
    });

    it('answers 409 "Email already in use" for another member’s email in another case', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];

      const response = await patchJson(member, {
        email: other.email.toUpperCase(),
        currentPassword: member.password,
      });

      expectError(response, 409, 'Email already in use');
    });

    it.each([
      {
        when: 'the username breaks the charset',
        patch: { username: 'no spaces!' },
        message: '3–20 chars: letters, numbers, . _ -',
      },
      {
        when: 'the username is 21 characters',
        patch: { username: 'a'.repeat(21) },
        message: '3–20 chars: letters, numbers, . _ -',
      },
      {
        when: 'the email is malformed',
        patch: { email: 'not-an-email', currentPassword: PASSWORD },
        message: 'Enter a valid email address.',
      },
      {
        when: 'there are 26 interests',
        patch: { interests: Array.from({ length: 26 }, (_, index) => `Interest${index}`) },
        message: 'Choose at most 25 interests.',
      },
      {
        when: 'the theme is unknown',
        patch: { theme: 'neon' },
        message: 'Theme must be one of: light, normal1, normal2, dark, custom.',
      },
    ])('answers 400 "$message" when $when', async ({ patch, message }) => {
      const member = await signupUser(t.app);

      const response = await patchJson(member, patch);

      expectError(response, 400, message);
    });
  });

  describe('PATCH /api/auth/profile with multipart', () => {
    it('replaces the avatar, saves comma-joined interests and removes the old avatar file', async () => {
      const member = await signupUser(t.app);
      const oldFile = uploadPath(member.user.profileImage);
      expect(fs.existsSync(oldFile)).toBe(true);

      const response = await patchForm(member, {
        interests: 'Gaming, Art,Pets',
        profilePic: { data: await pngImage(120, 90), filename: 'new.png', type: 'image/png' },
      });

      expect(response.statusCode).toBe(200);
      const user = response.json<{ user: User }>().user;
      expect(user.interests).toEqual(['Gaming', 'Art', 'Pets']);
      expect(user.profileImage).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
      expect(user.profileImage).not.toBe(member.user.profileImage);
      expect(fs.existsSync(uploadPath(user.profileImage))).toBe(true);
      expect(fs.existsSync(oldFile)).toBe(false);
    });

    it('saves text fields sent as a form without touching the avatar', async () => {
      const member = await signupUser(t.app);

      const response = await patchForm(member, { firstName: 'Katherine', lastName: 'Johnson' });

      expect(response.json<{ user: User }>().user).toMatchObject({
        fullName: 'Katherine Johnson',
        profileImage: member.user.profileImage,
      });
    });

    it('refuses a non-image avatar with 415 and keeps the old one', async () => {
      const member = await signupUser(t.app);

      const response = await patchForm(member, {
        profilePic: {
          data: Buffer.from('%PDF-1.4 not an image'),
          filename: 'cv.png',
          type: 'image/png',
        },
      });

      expect(response.statusCode).toBe(415);
      expect(fs.existsSync(uploadPath(member.user.profileImage))).toBe(true);
      expect(
        (await getMe(t.app, { cookie: member.cookie })).json<{ user: User }>().user.profileImage,
      ).toBe(member.user.profileImage);
    });
  });
});
