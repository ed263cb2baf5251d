/**
 * Uploads kept offline (docs/decisions.md "The offline outbox"): picked or shared with the network
 * off, they wait on the device as `Waiting to send`, through a reload, and are each sent once when
 * the network is back. A file that would not fit on the device is refused first: Chromium's quota
 * cannot be lowered for a test (Storage.overrideQuotaForOrigin leaves navigator.storage.estimate()
 * as it was), so that test has the page read a nearly full device from estimate().
 */
import { type BrowserContext, type Locator, type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import type { Member } from './helpers.ts';
import { type Api, controlledPage, test } from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 120_000 });

interface Picture {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A real JPEG of `width` x `height`, of one colour. */
async function jpeg(name: string, width: number, height: number): Promise<Picture> {
  const input = sharp({ create: { width, height, channels: 3, background: '#669bbc' } });
  return { name, mimeType: 'image/jpeg', buffer: await input.jpeg().toBuffer() };
}

/** A 2 x 2 BMP: a picture the browser shows, in a format the server does not take. */
function bmp(name: string): Picture {
  const buffer = Buffer.alloc(54 + 16);
  buffer.write('BM', 0, 'ascii');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(54, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(2, 18);
  buffer.writeInt32LE(2, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(24, 28);
  buffer.writeUInt32LE(16, 34);
  buffer.fill(0x80, 54);
  return { name, mimeType: 'image/bmp', buffer };
}

interface ApiImage {
  id: string;
  folder?: string;
  width?: number;
  height?: number;
}

async function imagesOf(api: Api, folder?: string): Promise<ApiImage[]> {
  const query = folder ? `&folder=${encodeURIComponent(folder)}` : '';
  const response = await api.request.get(`/api/gallery?userId=${api.id}${query}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { images: ApiImage[] }).images;
}

/** A page of a new context with `member` signed in and the worker in control, as after a visit. */
async function installedPage(
  browser: { newContext: () => Promise<BrowserContext> },
  member: Member,
) {
  const context = await browser.newContext();
  const page = await controlledPage(context, member);
  await page.reload();
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  return { context, page };
}

const photos = (page: Page) => page.getByRole('region', { name: 'Photos' });
const waitingTile = (scope: Page | Locator, name: string) =>
  scope.getByRole('listitem', { name: `${name} waiting to send` });

async function pick(scope: Page | Locator, page: Page, files: Picture[]) {
  const chooser = page.waitForEvent('filechooser');
  await scope.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles(files);
}

/** Brings the network back and tells the page, as the browser's `online` event does. */
async function backOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

test('two photos picked offline into a folder wait through a reload and arrive once when back', async ({
  browser,
  memberApi: member,
}) => {
  // The folder exists: one photo is in it already.
  const first = await jpeg('first.jpg', 200, 150);
  const seeded = await member.request.post('/api/gallery', {
    multipart: { image: first, folder: 'Trips' },
  });
  expect(seeded.status()).toBe(201);
  const { context, page } = await installedPage(browser, member);
  await photos(page).getByLabel('Folder').selectOption('Trips');

  await context.setOffline(true);
  // Offline, with the worker in control, Upload still works.
  await expect(photos(page).getByRole('button', { name: 'Upload', exact: true })).toBeEnabled();
  await pick(photos(page), page, [
    await jpeg('dunes.jpg', 320, 240),
    await jpeg('harbour.jpg', 240, 320),
  ]);
  await expect(waitingTile(photos(page), 'dunes.jpg')).toBeVisible();
  await expect(waitingTile(photos(page), 'harbour.jpg')).toBeVisible();
  await expect(waitingTile(photos(page), 'dunes.jpg')).toContainText('Waiting to send');
  await expect(
    photos(page).getByText(/2 photos wait to be sent when you're back online/),
  ).toBeVisible();
  expect(await imagesOf(member)).toHaveLength(1);

  // A reload offline: the files still wait, read back from the outbox.
  await page.reload();
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  await expect(waitingTile(photos(page), 'dunes.jpg')).toBeVisible();
  await expect(waitingTile(photos(page), 'harbour.jpg')).toBeVisible();
  // And in the manager too.
  await photos(page).getByRole('button', { name: 'View All' }).click();
  const manager = page.getByRole('dialog', { name: `Photos of @${member.username}` });
  await expect(waitingTile(manager, 'harbour.jpg')).toBeVisible();
  await expect(manager.getByText(/2 photos wait to be sent/)).toBeVisible();

  await backOnline(context, page);
  await expect
    .poll(async () => (await imagesOf(member, 'Trips')).length, { timeout: 30_000 })
    .toBe(3);
  await expect(waitingTile(page, 'dunes.jpg')).toHaveCount(0, { timeout: 10_000 });
  await expect(waitingTile(page, 'harbour.jpg')).toHaveCount(0);
  // Each once: the two new photos, by their shapes, in the folder, and nothing elsewhere.
  const inFolder = await imagesOf(member, 'Trips');
  const shapes = inFolder.map((image) => `${image.width}x${image.height}`).sort();
  expect(shapes).toEqual(['200x150', '240x320', '320x240']);
  expect(await imagesOf(member)).toHaveLength(3);
  // The gallery was read again: the manager shows the photos.
  await expect(
    manager.getByRole('list', { name: "Images in 'All'" }).locator('.photo-open'),
  ).toHaveCount(3);
  // Nothing is left to send: a nudge sends nothing again.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await page.waitForTimeout(1_000);
  expect(await imagesOf(member)).toHaveLength(3);
  await context.close();
});

test('a photo the server refuses when the outbox sends it is told in the server’s words', async ({
  browser,
  memberApi: member,
}) => {
  const { context, page } = await installedPage(browser, member);
  await context.setOffline(true);
  await pick(photos(page), page, [bmp('scan.bmp'), await jpeg('kept.jpg', 320, 240)]);
  await expect(waitingTile(photos(page), 'scan.bmp')).toBeVisible();
  await expect(waitingTile(photos(page), 'kept.jpg')).toBeVisible();

  await backOnline(context, page);
  const notice = page.getByRole('status').filter({ hasText: 'could not be sent' });
  await expect(notice).toContainText('A change made offline could not be sent:', {
    timeout: 30_000,
  });
  await expect(notice.getByRole('listitem')).toHaveCount(1);
  await expect(notice.getByRole('listitem')).not.toHaveText('');
  await expect(waitingTile(page, 'scan.bmp')).toHaveCount(0);
  await expect.poll(async () => (await imagesOf(member)).length, { timeout: 30_000 }).toBe(1);
  await expect(waitingTile(page, 'kept.jpg')).toHaveCount(0);
  await context.close();
});

/** Shares files into Orbit as a phone's share sheet does: a multipart POST navigation to /share. */
async function share(page: Page, files: Picture[]): Promise<void> {
  await page.evaluate(
    (shared) => {
      const form = document.createElement('form');
      form.action = '/share';
      form.method = 'post';
      form.enctype = 'multipart/form-data';
      const input = document.createElement('input');
      input.type = 'file';
      input.name = 'photos';
      input.multiple = true;
      const transfer = new DataTransfer();
      for (const { name, mimeType, base64 } of shared) {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], name, { type: mimeType }));
      }
      input.files = transfer.files;
      form.append(input);
      document.body.append(form);
      form.submit();
    },
    files.map(({ name, mimeType, buffer }) => ({
      name,
      mimeType,
      base64: buffer.toString('base64'),
    })),
  );
}

test('photos shared with the network off open in the manager and wait to be sent on Upload', async ({
  browser,
  memberApi: member,
}) => {
  const { context, page } = await installedPage(browser, member);
  await context.setOffline(true);
  await share(page, [await jpeg('beach.jpg', 320, 240), await jpeg('forest.jpg', 300, 200)]);
  await expect(page).toHaveURL(`/profile/${member.username}`);
  const manager = page.getByRole('dialog', { name: `Photos of @${member.username}` });
  await expect(
    manager.getByRole('listitem', { name: 'beach.jpg shared, not uploaded yet' }),
  ).toBeVisible();

  await manager.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(waitingTile(manager, 'beach.jpg')).toBeVisible();
  await expect(waitingTile(manager, 'forest.jpg')).toBeVisible();
  expect(await imagesOf(member)).toHaveLength(0);

  await backOnline(context, page);
  await expect.poll(async () => (await imagesOf(member)).length, { timeout: 30_000 }).toBe(2);
  const shapes = (await imagesOf(member)).map((image) => `${image.width}x${image.height}`).sort();
  expect(shapes).toEqual(['300x200', '320x240']);
  await expect(waitingTile(manager, 'beach.jpg')).toHaveCount(0, { timeout: 10_000 });
  await context.close();
});

test('a photo that would not fit on the device is refused before it is kept, and the member is told', async ({
  browser,
  memberApi: member,
}) => {
  const context = await browser.newContext();
  // The device as the browser reports it: a 40 MB quota with 50 kB left beyond the app's margin.
  await context.addInitScript(() => {
    const quota = 40 * 1024 * 1024;
    const usage = quota - 16 * 1024 * 1024 - 50 * 1024;
    Object.defineProperty(navigator.storage, 'estimate', {
      value: () => Promise.resolve({ quota, usage }),
    });
  });
  const page = await controlledPage(context, member);
  await page.reload();
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  const noise = sharp({
    create: {
      width: 700,
      height: 525,
      channels: 3,
      background: '#669bbc',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  });
  const large = {
    name: 'nebula.jpg',
    mimeType: 'image/jpeg',
    buffer: await noise.jpeg().toBuffer(),
  };
  expect(large.buffer.byteLength).toBeGreaterThan(60 * 1024);

  await context.setOffline(true);
  await pick(photos(page), page, [await jpeg('moon.jpg', 320, 240), large]);
  await expect(waitingTile(photos(page), 'moon.jpg')).toBeVisible();
  await expect(
    page.getByText(
      "Failed nebula.jpg: Not enough space on this device to keep it until you're back online.",
    ),
  ).toBeVisible();

  await backOnline(context, page);
  await expect.poll(async () => (await imagesOf(member)).length, { timeout: 30_000 }).toBe(1);
  await expect(waitingTile(page, 'moon.jpg')).toHaveCount(0, { timeout: 10_000 });
  expect((await imagesOf(member))[0]).toMatchObject({ width: 320, height: 240 });
  await context.close();
});
