import { randomBytes } from 'node:crypto';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  test as base,
  expect,
} from '@playwright/test';
import sharp from 'sharp';

export const PASSWORD = 'Sup3r$ecret!';

/** Settings' navigation: the sections by their plain names (the headings keep "Step n"). */
export const SETTINGS_NAV = [
  'Basic Info',
  'Security',
  'Profile',
  'Referral',
  'Waiting to send',
  'Blocked members',
  'Download my data',
  'Danger zone',
];

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

/**
 * Signs a member up through the API (the signup screen itself is tested on its own), with a
 * unique username unless `extra` names one.
 */
export async function createMember(
  request: APIRequestContext,
  baseURL: string,
  extra: Record<string, string> = {},
): Promise<Member> {
  const username = extra.username ?? uniqueName();
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

/**
 * Once the app has rendered over the page's first screen (`/landing`, `/signup`), whose fields take
 * no typing until then: what is measured afterwards is the app's own page.
 */
export async function untilAppRuns(page: Page) {
  await expect(page.locator('#root [readonly]')).toHaveCount(0);
}

/** Logs in through the landing page form, as a member would. */
export async function logIn(page: Page, member: Member, options: { remember?: boolean } = {}) {
  await page.goto('/landing');
  await fillLogin(page, member, options);
}

async function fillLogin(page: Page, member: Member, options: { remember?: boolean } = {}) {
  await page.getByLabel('Username or email').fill(member.username);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  if (options.remember) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Login' }).click();
}

/**
 * Logs in through the landing page's form as it is shown now (no navigation, no reload), and
 * waits for the own profile.
 */
export async function logInHere(page: Page, member: Member) {
  await expect(page).toHaveURL(/\/landing$/);
  await fillLogin(page, member);
  await expect(page).toHaveURL(`/profile/${member.username}`);
}

/**
 * A browser context of its own for `member` (with `context`'s options, such as a phone's viewport
 * and touch), logged in through the form and landed on the own profile; `path` is opened next
 * when given, and `clipboard` grants the clipboard permissions.
 */
export async function signedIn(
  browser: Browser,
  member: Member,
  options: { path?: string | undefined; clipboard?: boolean; context?: BrowserContextOptions } = {},
): Promise<Page> {
  const context = await browser.newContext({
    ...options.context,
    ...(options.clipboard ? { permissions: ['clipboard-read', 'clipboard-write'] } : {}),
  });
  const page = await context.newPage();
  await logIn(page, member);
  await expect(page).toHaveURL(/\/profile\//);
  if (options.path) await page.goto(options.path);
  return page;
}

export async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'orbit_session');
}

/**
 * Adds real photos to the signed-in member's gallery through the API (the upload screen itself is
 * tested on its own), each a different colour.
 */
export async function addPhotos(page: Page, baseURL: string, count: number) {
  for (let index = 0; index < count; index++) {
    const buffer = await sharp({
      create: { width: 800, height: 600, channels: 3, background: `#${index}4${index}7aa` },
    })
      .jpeg()
      .toBuffer();
    const response = await page.request.post('/api/gallery', {
      headers: { Origin: baseURL },
      multipart: { image: { name: `star-${index + 1}.jpg`, mimeType: 'image/jpeg', buffer } },
    });
    expect(response.status()).toBe(201);
  }
}

/**
 * Playwright's `test` with a fresh member for each test that asks for one: `member` (and
 * `otherMember`), signed up through the API, and `memberPage`, that member logged in through the form in a browser context
 * of its own, at `memberPath` when a file sets one (`test.use({ memberPath: '/settings' })`);
 * `memberPageWith(fields)` is such a page (closed after the test too) for a member signed up with
 * those profile fields.
 */
export const test = base.extend<{
  member: Member;
  memberPage: Page;
  memberPageWith: (fields: Record<string, string>) => Promise<Page>;
  memberPath: string;
  otherMember: Member;
}>({
  memberPath: ['', { option: true }],
  member: async ({ request, baseURL }, use) => {
    await use(await createMember(request, baseURL ?? ''));
  },
  // A second fresh member, for tests of what one member does to another.
  otherMember: async ({ request, baseURL }, use) => {
    await use(await createMember(request, baseURL ?? ''));
  },
  memberPage: async ({ browser, member, memberPath }, use) => {
    const page = await signedIn(browser, member, { path: memberPath || undefined });
    await use(page);
    await page.context().close();
  },
  memberPageWith: async ({ browser, request, baseURL, memberPath }, use) => {
    const pages: Page[] = [];
    await use(async (fields) => {
      const member = await createMember(request, baseURL ?? '', fields);
      const page = await signedIn(browser, member, { path: memberPath || undefined });
      pages.push(page);
      return page;
    });
    await Promise.all(pages.map((page) => page.context().close()));
  },
});
