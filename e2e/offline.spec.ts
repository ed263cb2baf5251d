import { type Browser, type Page, expect } from '@playwright/test';
import type { Member } from './helpers.ts';
import {
  OFFLINE_BANNER,
  bell,
  bellPanel,
  controlledPage,
  loadedThumbnails,
  sendFriendRequest,
  storedData,
  test,
  uploadPhotos,
} from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });

// Uploads, a service worker install and several offline reloads: more than the default 30 s.
test.describe.configure({ timeout: 90_000 });

const PHOTOS = 3;

interface Scene {
  member: Member;
  memberId: string;
  friend: Member;
}

const requestText = (friend: Member) => `@${friend.username} sent you a friend request`;

/**
 * The last visit before going offline: signed in with the worker in control, the member's profile
 * with its thumbnails, the bell with the friend request, and the friend's profile.
 */
async function visitOnline(browser: Browser, { member, friend }: Scene) {
  const context = await browser.newContext();
  const page = await controlledPage(context, member);
  await page.reload();
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  const thumbnails = await loadedThumbnails(page, PHOTOS);
  expect(thumbnails.every((thumbnail) => thumbnail.painted)).toBe(true);

  await bell(page).click();
  await expect(bellPanel(page).getByText(requestText(friend))).toBeVisible();
  await page.keyboard.press('Escape');

  await page.goto(`/profile/${friend.username}`);
  await expect(page.getByRole('heading', { name: friend.username })).toBeVisible();
  await loadedThumbnails(page, 1);
  await page.goto(`/profile/${member.username}`);
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  await loadedThumbnails(page, PHOTOS);
  return { context, page, thumbnails };
}

/**
 * Tests that start from a fresh scene: a member with photos and a friend request from someone who
 * has a photo too.
 */
const sceneTest = test.extend<{ setUp: Scene }>({
  setUp: async ({ memberApi: member, otherMemberApi: friend }, use) => {
    await uploadPhotos(member, PHOTOS);
    await uploadPhotos(friend, 1);
    await sendFriendRequest(friend, member);
    await use({ member, memberId: member.id, friend });
  },
});

/** The browser's own error page has no app in it; the app shell always has the top bar menu. */
async function expectAppShell(page: Page) {
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
}

sceneTest(
  'offline, a reload shows the profile, its thumbnails and the friend request from the last visit',
  async ({ browser, setUp }) => {
    const { member, friend } = setUp;
    const { context, page, thumbnails } = await visitOnline(browser, setUp);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
    await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
    // The very same thumbnails, decoded (not the fallback placeholder).
    expect(await loadedThumbnails(page, PHOTOS)).toEqual(thumbnails);

    await bell(page).click();
    await expect(bellPanel(page).getByText(requestText(friend))).toBeVisible();
    await page.keyboard.press('Escape');

    // The installed app starts at /profile: offline too it opens the member's own saved profile.
    await page.goto('/profile');
    await expectAppShell(page);
    await expect(page).toHaveURL(`/profile/${member.username}`);
    await expect(page.getByRole('heading', { name: member.username })).toBeVisible();

    // Deep links open offline in the app shell.
    await page.goto('/settings');
    await expectAppShell(page);
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await page.goto(`/profile/${friend.username}`);
    await expectAppShell(page);
    await expect(page.getByRole('heading', { name: friend.username })).toBeVisible();
    await loadedThumbnails(page, 1);
    // Answering the request can wait in the outbox; blocking needs the network.
    await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeEnabled();
    const menu = page.getByRole('button', { name: `More actions for @${friend.username}` });
    const block = page.getByRole('menuitem', { name: `Block @${friend.username}` });
    await menu.click();
    await expect(block).toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Escape');

    // Back online, the banner goes and the actions come back.
    await context.setOffline(false);
    await expect(page.getByText(OFFLINE_BANNER)).toBeHidden();
    await menu.click();
    await expect(block).not.toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Escape');
    await context.close();
  },
);

sceneTest(
  'after logout, an offline reload shows nothing of the member',
  async ({ browser, setUp }) => {
    const { member, memberId, friend } = setUp;
    const { context, page } = await visitOnline(browser, setUp);
    // What the last visit saved is there, under the member's name or id, until the logout.
    expect(await storedData(page)).toMatch(new RegExp(`${memberId}|${member.username}`));

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/landing$/);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await page.goto(`/profile/${member.username}`);
    await expect(page).toHaveURL(/\/(landing)?$/);
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page.getByText(member.username)).toHaveCount(0);
    await expect(page.getByText(friend.username)).toHaveCount(0);

    // Nothing answers for the member from a saved copy, and nothing of theirs is stored.
    const me = await page.evaluate(async () => {
      try {
        const response = await fetch('/api/auth/me', { headers: { Accept: 'application/json' } });
        return `${response.status} ${await response.text()}`;
      } catch {
        return 'unreachable';
      }
    });
    expect(me).not.toMatch(/^200/);
    expect(me).not.toContain(member.username);
    const stored = await storedData(page);
    for (const trace of [memberId, member.username, friend.username])
      expect(stored).not.toContain(trace);
    await context.close();
  },
);

sceneTest(
  'a slow phone still starts offline: with the processor six times slower, a reload shows the saved profile',
  async ({ browser, setUp }) => {
    const { member } = setUp;
    const { context, page } = await visitOnline(browser, setUp);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });

    await context.setOffline(true);
    await page.reload();
    await expectAppShell(page);
    await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
    await loadedThumbnails(page, PHOTOS);
    await expect(page.getByText('Failed to reach auth service')).toHaveCount(0);
    await context.close();
  },
);
