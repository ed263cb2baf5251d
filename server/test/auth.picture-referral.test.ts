/** Settings needs (issue 6): a new picture loses its metadata; referral codes are unique and stable. */
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { User } from '../../src/contracts/user.ts';
import {
  asCookie,
  exifHasGps,
  getMe,
  signupMembers,
  forEachApp,
  jpegWithGps,
  patchProfileForm,
  patchProfile,
} from './helpers.ts';

forEachApp((t) => {
  it('strips every metadata block from a changed profile picture and removes the old file', async () => {
    const [member] = await signupMembers(t.app, 1);
    const before = member.user.profileImage.replace(/^\/uploads\//, '');
    const photo = await jpegWithGps(90, 70, '#335577');
    expect(exifHasGps((await sharp(photo).metadata()).exif)).toBe(true);

    const response = await patchProfileForm(t.app, member, {
      profilePic: { data: photo, filename: 'new.jpg', type: 'image/jpeg' },
    });

    expect(response.statusCode).toBe(200);
    const after = response.json<{ user: User }>().user.profileImage.replace(/^\/uploads\//, '');
    expect(after).not.toBe(before);
    const stored = await sharp(await fs.readFile(path.join(t.config.uploadsDir, after))).metadata();
    expect(stored.exif).toBeUndefined();
    expect(stored.icc).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    await expect(fs.access(path.join(t.config.uploadsDir, before))).rejects.toThrow();
  });

  it('gives every member a different referral code of eight unambiguous characters', async () => {
    const members = await signupMembers(t.app, 12);
    const codes = members.map((member) => member.user.referralCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  });

  it('keeps a member’s referral code through profile changes and new sessions', async () => {
    const [member] = await signupMembers(t.app, 1);
    const code = member.user.referralCode;
    await patchProfile(t.app, asCookie(member), { firstName: 'Vega', referral: 'SOMEONE1' });
    const me = (await getMe(t.app, asCookie(member))).json<{ user: User }>().user;
    expect(me.referralCode).toBe(code);
    expect(me.referral).toBe('SOMEONE1');
  });
});
