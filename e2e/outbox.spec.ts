/** The offline outbox (docs/decisions.md "The offline outbox"): writes kept offline, sent when back. */
import { expect } from '@playwright/test';
import { imageIds, listeningPage, results, write } from './outbox-helpers.ts';
import { sendFriendRequest, test, uploadPhotos } from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 90_000 });

test('writes made offline wait through a reload and are sent once, in order, when back', async ({
  browser,
  memberApi: member,
  otherMemberApi: friend,
}) => {
  await uploadPhotos(member, 2);
  await sendFriendRequest(friend, member);
  const [first, second] = await imageIds(member);
  const { context, page } = await listeningPage(browser, member);

  await context.setOffline(true);
  expect(await write(page, 'PATCH', `/api/gallery/${first}`, { caption: 'Sea' }, 'k1')).toBe(202);
  expect(await write(page, 'PATCH', `/api/gallery/${second}`, { likes: true }, 'k2')).toBe(202);
  expect(
    await write(page, 'PATCH', `/api/gallery/${first}`, { caption: 'Sea at dusk' }, 'k3'),
  ).toBe(202);
  expect(
    await write(page, 'POST', '/api/users/friends/accept', { fromUserId: friend.id }, 'k4'),
  ).toBe(202);

  // Nothing reached the server, and the queue survives a reload offline.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  const status = await member.request.get(`/api/users/friends/status?userId=${friend.id}`);
  expect(JSON.stringify(await status.json())).not.toMatch(/"friends"/);

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect
    .poll(() => results(page), { timeout: 15_000 })
    .toEqual(['k1', 'k2', 'k3', 'k4'].map((key) => ({ type: 'outbox', key, result: 'sent' })));

  const images = (await (await member.request.get(`/api/gallery?userId=${member.id}`)).json()) as {
    images: { id: string; caption?: string; likes?: unknown }[];
  };
  // The later caption is the one kept: the two edits were sent in the order they were made.
  expect(images.images.find((image) => image.id === first)?.caption).toBe('Sea at dusk');
  const friends = await member.request.get(`/api/users/friends/status?userId=${friend.id}`);
  expect(JSON.stringify(await friends.json())).toMatch(/"friends"/);

  // Nothing is left to send: a nudge sends nothing again.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForTimeout(500);
  expect(await results(page)).toHaveLength(4);
  await context.close();
});

test('a write the server refuses when it is sent is told with the server’s words, and the rest go on', async ({
  browser,
  memberApi: member,
}) => {
  await uploadPhotos(member, 2);
  const [first, second] = await imageIds(member);
  const { context, page } = await listeningPage(browser, member);

  await context.setOffline(true);
  expect(await write(page, 'PATCH', `/api/gallery/${first}`, { caption: 'Gone' }, 'k1')).toBe(202);
  expect(await write(page, 'PATCH', `/api/gallery/${second}`, { caption: 'Kept' }, 'k2')).toBe(202);
  // Meanwhile the photo is deleted from another device.
  expect((await member.request.delete(`/api/gallery/${first}`)).ok()).toBe(true);

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(() => results(page), { timeout: 15_000 }).toHaveLength(2);
  const [refused, sent] = (await results(page)) as {
    key: string;
    result: string;
    error?: string;
  }[];
  expect(refused).toMatchObject({ key: 'k1', result: 'refused' });
  expect(refused?.error).toBeTruthy();
  expect(sent).toMatchObject({ key: 'k2', result: 'sent' });
  // The page lists the refusal in the server's words, until dismissed.
  const notice = page.getByRole('status').filter({ hasText: 'could not be sent' });
  await expect(notice).toContainText('A change made offline could not be sent:');
  await expect(notice.getByRole('listitem')).toHaveText([refused?.error ?? '']);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('could not be sent')).toHaveCount(0);
  await context.close();
});

test('a second member signed in on the same tab never sends the first member’s waiting writes', async ({
  browser,
  memberApi: first,
  otherMemberApi: second,
}) => {
  await uploadPhotos(first, 1);
  const [photo] = await imageIds(first);
  const { context, page } = await listeningPage(browser, first);

  // The server cannot be reached for this write alone, so the rest of the session goes on.
  await context.route('**/api/gallery/*', (route) =>
    route.request().method() === 'PATCH' ? route.abort('internetdisconnected') : route.fallback(),
  );
  expect(await write(page, 'PATCH', `/api/gallery/${photo}`, { caption: 'Mine' }, 'k1')).toBe(202);

  // The first member's session ends away from the tab (it ran out while the app was closed), not
  // by a logout here, which would discard what waits: the tab opens again with nobody signed in.
  await context.clearCookies();
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.goto('/landing');
  await expect(page.getByLabel('Username or email')).toBeVisible();
  await page.getByLabel('Username or email').fill(second.username);
  await page.getByLabel('Password', { exact: true }).fill(second.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: second.username })).toBeVisible();

  await context.unroute('**/api/gallery/*');
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForTimeout(1_000);
  const gallery = (await (await first.request.get(`/api/gallery?userId=${first.id}`)).json()) as {
    images: { id: string; caption?: string }[];
  };
  expect(gallery.images.find((image) => image.id === photo)?.caption ?? '').not.toBe('Mine');
  expect(await results(page)).toEqual([]);

  // Back as the first member, the write is sent. The second has nothing waiting: no question.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Username or email').fill(first.username);
  await page.getByLabel('Password', { exact: true }).fill(first.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: first.username })).toBeVisible();
  await expect
    .poll(() => results(page), { timeout: 15_000 })
    .toEqual([{ type: 'outbox', key: 'k1', result: 'sent' }]);
  await context.close();
});
