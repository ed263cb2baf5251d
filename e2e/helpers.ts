import { randomBytes } from 'node:crypto';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import sharp from 'sharp';

export const PASSWORD = 'Sup3r$ecret!';

/** A unique, valid username per call, so tests never collide on one server. */
export function uniqueName(prefix = 'm'): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

let png: Promise<Buffer> | undefined;
/** A real little PNG made on the spot. */
export function avatarPng(): Promise<Buffer> {
  png ??= sharp({ create: { width: 96, height: 96, channels: 3, background: '#5b4bff' } })
    .png()
    .toBuffer();
  return png;
}

export interface Member {
  username: string;
  email: string;
  password: string;
}

/** Signs a member up through the API (the signup screen itself is tested on its own). */
export async function createMember(
  request: APIRequestContext,
  baseURL: string,
  extra: Record<string, string> = {},
): Promise<Member> {
  const username = uniqueName();
  const member = { username, email: `${username}@orbit.example`, password: PASSWORD };
  const response = await request.post('/api/auth/signup', {
    headers: { Origin: baseURL },
    multipart: {
      username,
      email: member.email,
      password: PASSWORD,
      birthday: '1991-07-14',
      ...extra,
      profilePic: { name: 'me.png', mimeType: 'image/png', buffer: await avatarPng() },
    },
  });
  if (response.status() !== 201)
    throw new Error(`signup failed: ${response.status()} ${await response.text()}`);
  return member;
}

/** Logs in through the landing page form, as a member would. */
export async function logIn(page: Page, member: Member, options: { remember?: boolean } = {}) {
  await page.goto('/landing');
  await page.getByLabel('Username or email').fill(member.username);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  if (options.remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Login' }).click();
}

export async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'orbit_session');
}
