/**
 * Acting offline in the page (docs/decisions.md "The offline outbox"): a like, a caption and an
 * answer to a friend request taken through the UI with the network off show at once as done,
 * marked "Waiting to send", still after a reload offline, and are sent once, in order, when back.
 */
import { type Browser, type BrowserContext, type Page, expect } from '@playwright/test';
import type { Member } from './helpers.ts';
import {
  type Api,
  OFFLINE_BANNER,
  bell,
  bellPanel,
  controlledPage,
  loadedThumbnails,
  sendFriendRequest,
  test,
  uploadPhotos,
} from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 120_000 });

const WAITING = 'Waiting to send';

interface OutboxMessage {
  key: string;
  result: string;
  error?: string;
}

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Image viewer' });
const likeButton = (page: Page) => viewer(page).getByRole('button', { name: /^Like\b/ });
const friendButtons = (page: Page) => page.locator('.friend-buttons');

/** What the worker told this page about the outbox, in order (not the "still waiting" retries). */
const messages = (page: Page, result: string) =>
  page.evaluate(
    (result) =>
      (JSON.parse(sessionStorage.getItem('outboxMessages') ?? '[]') as OutboxMessage[]).filter(
        (message) => message.result === result,
      ),
    result,
  );

/**
 * A page of a new context with `member` signed in and the worker in control, keeping every outbox
 * message the worker posts; the member's own profile and then `friend`'s are visited online, so
 * both are saved for offline.
 */
async function signedInPage(
  browser: Browser,
  member: Member,
  friend: Member,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  // Kept in the tab's session storage, so they outlast the reloads and navigations.
  await context.addInitScript(() => {
    navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type !== 'outbox') return;
      const kept = JSON.parse(sessionStorage.getItem('outboxMessages') ?? '[]') as unknown[];
      sessionStorage.setItem('outboxMessages', JSON.stringify([...kept, event.data]));
    });
  });
  const page = await controlledPage(context, member);
  await page.reload();
  await loadedThumbnails(page, 1);
  await page.goto(`/profile/${friend.username}`);
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeEnabled();
  await page.goto(`/profile/${member.username}`);
  await loadedThumbnails(page, 1);
  return { context, page };
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
}

async function goOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

async function imageOf(api: Api, imageId: string) {
  const response = await api.request.get(`/api/gallery?userId=${api.id}`);
  const { images } = (await response.json()) as {
    images: { id: string; caption?: string; likeCount: number; likes: string[] }[];
  };
  return images.find((image) => image.id === imageId);
}

async function friendStatus(api: Api, userId: string): Promise<string> {
  const response = await api.request.get(`/api/users/friends/status?userId=${userId}`);
  return ((await response.json()) as { status: string }).status;
}

/** Opens the viewer on the grid's first photo; answers its id. */
async function openFirstPhoto(page: Page): Promise<string> {
  await page.getByRole('list', { name: 'Photos' }).locator('.photo-open').first().click();
  await expect(viewer(page)).toBeVisible();
  return new URL(page.url()).searchParams.get('image') ?? '';
}

test('a like, a caption and an accepted request made offline show as done and waiting, through a reload, and are sent once, in order, when back', async ({
  browser,
  memberApi: member,
  otherMemberApi: friend,
}) => {
  await uploadPhotos(member, 1);
  await sendFriendRequest(friend, member);
  const { context, page } = await signedInPage(browser, member, friend);
  const photo = await openFirstPhoto(page);
  await goOffline(context, page);

  // A like: pressed at once, counted, and marked for screen readers too.
  await expect(likeButton(page)).toBeEnabled();
  await likeButton(page).click();
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(likeButton(page).locator('.reaction-count')).toHaveText('1');
  await expect(likeButton(page)).toHaveAccessibleDescription(WAITING);

  // A caption, through the menu and the editor.
  await viewer(page).getByRole('button', { name: 'Image actions' }).click();
  await viewer(page).getByRole('menuitem', { name: 'Edit caption' }).click();
  await viewer(page).getByLabel('Caption').fill('Sea at dusk');
  await viewer(page).getByRole('button', { name: 'Save' }).click();
  await expect(viewer(page).getByText('Sea at dusk', { exact: true })).toBeVisible();
  await expect(viewer(page).getByText(WAITING)).toHaveCount(2);

  // Accepting the friend's request on their profile.
  await page.goto(`/profile/${friend.username}`);
  await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(friendButtons(page).getByRole('button', { name: 'Unfriend' })).toBeVisible();
  await expect(friendButtons(page).getByText(WAITING)).toBeVisible();
  await expect.poll(async () => (await messages(page, 'queued')).length).toBe(3);
  // Kept, not yet sent: the mark says so, and no toast says they are friends.
  await expect(page.getByText('You are now friends')).toHaveCount(0);

  // Nothing reached the server.
  expect(await imageOf(member, photo)).toMatchObject({ likeCount: 0 });
  expect((await imageOf(member, photo))?.caption ?? '').toBe('');
  expect(await friendStatus(member, friend.id)).not.toBe('friends');

  // A reload offline starts from the saved copies, which hold the old state: the waiting
  // changes are still shown over them, still marked.
  await page.reload();
  await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
  await expect(friendButtons(page).getByRole('button', { name: 'Unfriend' })).toBeVisible();
  await expect(friendButtons(page).getByText(WAITING)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toHaveCount(0);
  await page.goto(`/profile/${member.username}?image=${photo}`);
  await expect(viewer(page)).toBeVisible();
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(likeButton(page).locator('.reaction-count')).toHaveText('1');
  await expect(likeButton(page)).toHaveAccessibleDescription(WAITING);
  await expect(viewer(page).getByText('Sea at dusk', { exact: true })).toBeVisible();
  await expect(viewer(page).getByText(WAITING)).toHaveCount(2);

  // Back online: each is sent once, in the order taken, and the marks go.
  const queued = (await messages(page, 'queued')).map((message) => message.key);
  await goOnline(context, page);
  await expect(viewer(page).getByText(WAITING)).toHaveCount(0, { timeout: 15_000 });
  // Sent in the order taken: the like, the caption, the answer.
  await expect
    .poll(async () => (await messages(page, 'sent')).map((message) => message.key))
    .toEqual(queued);
  expect(await messages(page, 'refused')).toEqual([]);
  await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(likeButton(page).locator('.reaction-count')).toHaveText('1');
  await expect(viewer(page).getByText('Sea at dusk', { exact: true })).toBeVisible();

  const image = await imageOf(member, photo);
  expect(image).toMatchObject({ caption: 'Sea at dusk', likeCount: 1 });
  expect(image?.likes).toEqual([member.id]);
  expect(await friendStatus(member, friend.id)).toBe('friends');

  expect(new Set(queued).size).toBe(3);

  // Nothing is left to send: a nudge sends nothing again.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForTimeout(500);
  expect(await messages(page, 'sent')).toHaveLength(3);

  await page.goto(`/profile/${friend.username}`);
  await expect(friendButtons(page).getByRole('button', { name: 'Unfriend' })).toBeEnabled();
  await expect(friendButtons(page).getByText(WAITING)).toHaveCount(0);
  await context.close();
});

test('changes refused when they are sent are undone in the page, with the server’s words in one notice', async ({
  browser,
  memberApi: member,
  otherMemberApi: friend,
}) => {
  await uploadPhotos(member, 1);
  await sendFriendRequest(friend, member);
  const { context, page } = await signedInPage(browser, member, friend);
  const photo = await openFirstPhoto(page);
  await goOffline(context, page);

  await likeButton(page).click();
  await expect(likeButton(page)).toHaveAccessibleDescription(WAITING);
  await page.goto(`/profile/${friend.username}`);
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await expect(friendButtons(page).getByText(WAITING)).toBeVisible();

  // Meanwhile, from other devices, the photo is deleted and the request taken back.
  expect((await member.request.delete(`/api/gallery/${photo}`)).ok()).toBe(true);
  const cancel = await friend.request.post('/api/users/friends/cancel', {
    data: { toUserId: member.id },
  });
  expect(cancel.ok()).toBe(true);

  await goOnline(context, page);
  await expect.poll(async () => (await messages(page, 'refused')).length).toBe(2);
  const refused = (await messages(page, 'refused')).map((message) => message.error ?? '');
  expect(refused).toEqual([
    'No such image in your gallery.',
    'There is no friend request to accept.',
  ]);
  expect(await messages(page, 'sent')).toEqual([]);

  // The answer is undone: the friend can be added again, and nothing is marked as waiting.
  await expect(friendButtons(page).getByRole('button', { name: 'Add', exact: true })).toBeVisible();
  await expect(page.getByText(WAITING)).toHaveCount(0);
  const notice = page.getByRole('status').filter({ hasText: 'could not be sent' });
  await expect(notice).toContainText('2 changes made offline could not be sent:');
  await expect(notice.getByRole('listitem')).toHaveText(refused);
  expect(await friendStatus(member, friend.id)).toBe('none');

  // The photo is gone from the member's gallery.
  await page.goto(`/profile/${member.username}`);
  await expect(page.getByText('No images yet. Upload to get started.')).toBeVisible();
  await context.close();
});

test('a request declined in the bell offline shows as answered and waiting, through a reload, and is sent when back', async ({
  browser,
  memberApi: member,
  otherMemberApi: friend,
}) => {
  await uploadPhotos(member, 1);
  await sendFriendRequest(friend, member);
  const { context, page } = await signedInPage(browser, member, friend);
  const request = bellPanel(page)
    .getByRole('listitem')
    .filter({ hasText: `@${friend.username} sent you a friend request` });
  await bell(page).click();
  await expect(request.getByRole('button', { name: 'Decline' })).toBeVisible();
  await page.keyboard.press('Escape');
  await goOffline(context, page);

  await bell(page).click();
  await request.getByRole('button', { name: 'Decline' }).click();
  await expect(request.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await expect(request.getByText(WAITING)).toBeVisible();
  await expect.poll(async () => (await messages(page, 'queued')).length).toBe(1);

  await page.reload();
  await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
  await bell(page).click();
  await expect(request.getByText(WAITING)).toBeVisible();
  await expect(request.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  expect(await friendStatus(member, friend.id)).toBe('incoming');

  await goOnline(context, page);
  await expect.poll(async () => (await messages(page, 'sent')).length, { timeout: 15_000 }).toBe(1);
  // The server takes the request's notification away with the request.
  await expect(request).toHaveCount(0);
  await expect(bellPanel(page).getByText(WAITING)).toHaveCount(0);
  expect(await friendStatus(member, friend.id)).toBe('none');
  await context.close();
});
