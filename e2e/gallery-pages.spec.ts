import { type Page, type Request, expect, test } from '@playwright/test';
import sharp from 'sharp';
import { type Member, createMember, logIn } from './helpers.ts';
import {
  OFFLINE_BANNER,
  type Api,
  apiAs,
  controlledPage,
  loadedThumbnails,
} from './pwa-helpers.ts';

// Many uploads, a worker install and an offline reload: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

/** Uploads `count` small real PNGs through the gallery API, a few at a time. */
async function uploadMany(api: Api, count: number) {
  const buffer = await sharp({
    create: { width: 48, height: 36, channels: 3, background: '#669bbc' },
  })
    .png()
    .toBuffer();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const response = await api.request.post('/api/gallery', {
        multipart: { image: { name: `p${index}.png`, mimeType: 'image/png', buffer } },
      });
      expect(response.status()).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** The gallery's ids in saved order, read through the API's largest pages. */
async function savedOrder(api: Api): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ userId: api.id, limit: '200' });
    if (cursor) query.set('cursor', cursor);
    const response = await api.request.get(`/api/gallery?${query.toString()}`);
    const page = (await response.json()) as { images: { id: string }[]; nextCursor: string | null };
    ids.push(...page.images.map((image) => image.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

/** GET /api/gallery calls of a page: every one, and those for a later page. */
function galleryCalls(page: Page) {
  const calls: URL[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === '/api/gallery') calls.push(url);
  });
  return {
    all: () => calls,
    later: () => calls.filter((url) => url.searchParams.has('cursor')),
  };
}

const grid = (page: Page) => page.getByRole('list', { name: 'Photos' });
const viewer = (page: Page) => page.getByRole('dialog', { name: 'Image viewer' });

/** Opens the member's photo manager from the profile, and scrolls its list to the top or the end. */
async function openManager(page: Page, member: Member) {
  await page.getByRole('button', { name: 'View All' }).click();
  const manager = page.getByRole('dialog', { name: `Photos of @${member.username}` });
  const body = manager.locator('.manager-body');
  const scroll = (to: 'top' | 'end') =>
    body.evaluate(
      (element, end) => element.scrollTo(0, end ? element.scrollHeight : 0),
      to === 'end',
    );
  return { manager, scroll };
}

async function memberWith(
  playwright: Parameters<typeof apiAs>[0],
  request: Parameters<typeof createMember>[0],
  baseURL: string,
  count: number,
): Promise<{ member: Member; order: string[] }> {
  const member = await createMember(request, baseURL);
  const api = await apiAs(playwright, baseURL, member);
  await uploadMany(api, count);
  const order = await savedOrder(api);
  await api.request.dispose();
  return { member, order };
}

test('the manager and the viewer read a long gallery page by page', async ({
  playwright,
  request,
  baseURL,
  browser,
}) => {
  const { member, order } = await memberWith(playwright, request, baseURL ?? '', 150);
  expect(order).toHaveLength(150);
  const context = await browser.newContext();
  const page = await context.newPage();
  const calls = galleryCalls(page);
  await logIn(page, member);
  await expect(page).toHaveURL(`/profile/${member.username}`);

  // The grid needs the first page only; the header counts every photo.
  await expect(grid(page).locator('.photo-open')).toHaveCount(8);
  await expect(page.getByText(/150 Posts/)).toBeVisible();
  expect(calls.later()).toHaveLength(0);
  expect(calls.all()[0]?.search).toMatch(/^\?userId=[^&]+&username=[^&]+$/);

  // The manager reads on as the member scrolls to the end.
  const { manager, scroll } = await openManager(page, member);
  await expect(manager.getByText('Showing 60 / 150')).toBeVisible();
  await scroll('end');
  await expect(manager.getByText('Showing 120 / 150')).toBeVisible();
  await scroll('end');
  await expect(manager.getByText('Showing 150 / 150')).toBeVisible();
  await expect(manager.locator('.photo-open')).toHaveCount(150);
  await expect(manager.getByRole('button', { name: 'Show more' })).toBeHidden();
  expect(calls.later()).toHaveLength(2);
  await manager.getByRole('button', { name: 'Close' }).click();

  // A fresh visit: the viewer goes past the last image of the first page.
  await page.goto(`/profile/${member.username}?image=${order[58]}`);
  await expect(viewer(page).getByText('59 / 150')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(viewer(page).getByText('60 / 150')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(viewer(page).getByText('61 / 150')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`image=${order[60]}$`));

  // A shared link to an image far past the first page opens on it.
  await page.goto(`/profile/${member.username}?image=${order[139]}`);
  await expect(viewer(page).getByText('140 / 150')).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page).toHaveURL(new RegExp(`image=${order[138]}$`));
  await context.close();
});

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('a reload shows the saved first page, and a later page fails once without asking again', async ({
    playwright,
    request,
    baseURL,
    browser,
  }) => {
    const { member } = await memberWith(playwright, request, baseURL ?? '', 70);
    const context = await browser.newContext();
    const page = await controlledPage(context, member);
    await page.reload();
    const thumbnails = await loadedThumbnails(page, 8);

    await context.setOffline(true);
    const calls = galleryCalls(page);
    await page.reload();
    await expect(page.getByText(OFFLINE_BANNER)).toBeVisible();
    expect(await loadedThumbnails(page, 8)).toEqual(thumbnails);
    await expect(page.getByText(/70 Posts/)).toBeVisible();

    const { manager, scroll } = await openManager(page, member);
    await expect(manager.getByText('Showing 60 / 70')).toBeVisible();
    await scroll('end');
    await expect(manager.getByText('Could not load more photos.')).toBeVisible();
    await expect(manager.getByRole('button', { name: 'Try again' })).toBeVisible();
    await scroll('top');
    await scroll('end');
    await expect(manager.getByText('Showing 60 / 70')).toBeVisible();
    expect(calls.later()).toHaveLength(1);

    // Back online, the gallery is read afresh and the manager, at its end, reads the rest.
    await context.setOffline(false);
    await expect(manager.getByText('Showing 70 / 70')).toBeVisible();
    await expect(manager.getByText('Could not load more photos.')).toBeHidden();
    await context.close();
  });
});
