import { type Page, expect } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { apiAs } from './pwa-helpers.ts';
import { test } from './helpers.ts';

/**
 * A profile left and gone back to is shown again from the back/forward cache, with its live
 * connection opened again (docs/decisions.md "Back/forward cache"). Playwright turns the cache off
 * in the browsers it starts; headless Chromium keeps pages in it once that flag is dropped.
 */
test.use({
  launchOptions: {
    ...chromiumLaunchOptions,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
});

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });

test('a profile comes back from the back/forward cache with its live connection', async ({
  memberPage: page,
  member,
  otherMember,
  playwright,
  baseURL,
}) => {
  const messages: string[] = [];
  page.on('console', (message) => {
    // The plain-text page in between has no icon: the browser's request for one is not the app's.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico'))
      messages.push(message.text());
  });
  await page.goto(`/profile/${member.username}`);
  await expect(page.locator('.profile-header img.avatar')).toBeVisible();
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await page.evaluate(() => {
    (window as unknown as { keptPage: boolean }).keptPage = true;
    window.addEventListener('pageshow', (event) => {
      (window as unknown as { restored: boolean }).restored = event.persisted;
    });
  });

  await page.goto('/robots.txt');
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(new RegExp(`/profile/${member.username}$`));
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { restored?: boolean }).restored))
    .toBe(true);
  // The same document: what it held before it was left is still there.
  expect(await page.evaluate(() => (window as unknown as { keptPage?: boolean }).keptPage)).toBe(
    true,
  );
  expect(
    await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type,
    ),
  ).toBe('navigate');

  // The socket closed as the page was cached opens again, and live events reach the page: with
  // no socket, nothing would fetch the new notification.
  const other = await apiAs(playwright, baseURL ?? '', otherMember);
  const me = await apiAs(playwright, baseURL ?? '', member);
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  expect(
    (await other.request.post('/api/users/friends/request', { data: { toUserId: me.id } })).ok(),
  ).toBe(true);
  await expect(bell(page)).toHaveAttribute('aria-label', 'Notifications, 2 unread');
  // Closing the socket itself, the page never had it cut by the browser with an error.
  expect(messages).toEqual([]);
});
