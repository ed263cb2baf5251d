import { type Locator, type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import { type Member, logInHere } from './helpers.ts';
import { type Api, controlledPage, storedData, test } from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });
// A worker install, a share and uploads.
test.describe.configure({ timeout: 90_000 });

interface SharedFile {
  name: string;
  type: string;
  base64: string;
}

async function png(name: string, background: string): Promise<SharedFile> {
  const buffer = await sharp({ create: { width: 200, height: 150, channels: 3, background } })
    .png()
    .toBuffer();
  return { name, type: 'image/png', base64: buffer.toString('base64') };
}

const text = (name: string): SharedFile => ({
  name,
  type: 'text/plain',
  base64: Buffer.from('Not a picture at all.').toString('base64'),
});

/**
 * Shares files into Orbit as a phone's share sheet does: a multipart POST navigation to /share
 * with the files in the `photos` field, which the service worker answers.
 */
async function share(page: Page, files: SharedFile[]): Promise<void> {
  await page.evaluate((shared) => {
    const form = document.createElement('form');
    form.action = '/share';
    form.method = 'post';
    form.enctype = 'multipart/form-data';
    const input = document.createElement('input');
    input.type = 'file';
    input.name = 'photos';
    input.multiple = true;
    const transfer = new DataTransfer();
    for (const { name, type, base64 } of shared) {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], name, { type }));
    }
    input.files = transfer.files;
    form.append(input);
    document.body.append(form);
    form.submit();
  }, files);
}

const manager = (page: Page, member: Member) =>
  page.getByRole('dialog', { name: `Photos of @${member.username}` });
const sharedTile = (page: Page | Locator, name: string) =>
  page.getByRole('listitem', { name: `${name} shared, not uploaded yet` });

async function galleryCount(api: Api): Promise<number> {
  const response = await api.request.get(`/api/gallery?userId=${api.id}`);
  expect(response.ok()).toBe(true);
  const { images } = (await response.json()) as { images: unknown[] };
  return images.length;
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/landing$/);
}

test('the manifest offers Orbit in the share sheet for images', async ({ request }) => {
  const html = await (await request.get('/landing', { headers: { Accept: 'text/html' } })).text();
  const href = /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1] ?? '';
  const manifest = (await (await request.get(href)).json()) as { share_target?: unknown };
  expect(manifest.share_target).toEqual({
    action: '/share',
    method: 'POST',
    enctype: 'multipart/form-data',
    params: { files: [{ name: 'photos', accept: ['image/*'] }] },
  });
});

test('two shared photos land in the upload manager and upload', async ({ browser, memberApi }) => {
  const context = await browser.newContext();
  const page = await controlledPage(context, memberApi);
  await share(page, [await png('beach.png', '#f3a712'), await png('forest.png', '#29335c')]);

  await expect(page).toHaveURL(`/profile/${memberApi.username}`);
  const open = manager(page, memberApi);
  await expect(open).toBeVisible();
  await expect(sharedTile(open, 'beach.png')).toBeVisible();
  await expect(sharedTile(open, 'forest.png')).toBeVisible();
  // Held until the member says so.
  expect(await galleryCount(memberApi)).toBe(0);

  await open.getByRole('button', { name: 'Upload' }).click();
  await expect.poll(() => galleryCount(memberApi), { timeout: 20_000 }).toBe(2);
  await expect(open.getByRole('listitem', { name: /shared, not uploaded yet/ })).toHaveCount(0);
  // Sent on: nothing of the share waits on the device any more, and a reload opens no manager.
  expect(await storedData(page)).not.toContain('beach.png');
  await page.reload();
  await expect(page.getByRole('heading', { name: memberApi.username })).toBeVisible();
  await expect(manager(page, memberApi)).toBeHidden();
  await context.close();
});

test('a shared file that is no picture is refused on its tile; Remove drops another', async ({
  browser,
  memberApi,
}) => {
  const context = await browser.newContext();
  const page = await controlledPage(context, memberApi);
  await share(page, [text('notes.txt'), await png('sky.png', '#669bbc')]);

  const open = manager(page, memberApi);
  await expect(open.getByText('Rejected notes.txt: not a supported image')).toBeVisible();
  await expect(sharedTile(open, 'sky.png')).toBeVisible();
  await open.getByRole('button', { name: 'Remove sky.png' }).click();
  await expect(sharedTile(open, 'sky.png')).toHaveCount(0);
  expect(await storedData(page)).not.toContain('sky.png');
  expect(await storedData(page)).not.toContain('notes.txt');
  await context.close();
});

test('a share while signed out waits for the login, then opens', async ({ browser, memberApi }) => {
  const context = await browser.newContext();
  const page = await controlledPage(context, memberApi);
  await logOut(page);
  await share(page, [await png('moon.png', '#7b2d26')]);
  // The profile needs a member: the login first, then back to it.
  await logInHere(page, memberApi);
  const open = manager(page, memberApi);
  await expect(sharedTile(open, 'moon.png')).toBeVisible();
  await open.getByRole('button', { name: 'Upload' }).click();
  await expect.poll(() => galleryCount(memberApi), { timeout: 20_000 }).toBe(1);
  await context.close();
});

test("member A's share never shows for member B", async ({
  browser,
  memberApi,
  otherMemberApi,
}) => {
  const context = await browser.newContext();
  const page = await controlledPage(context, memberApi);
  await share(page, [await png('secret.png', '#a8c686')]);
  await expect(sharedTile(manager(page, memberApi), 'secret.png')).toBeVisible();
  expect(await storedData(page)).toContain('secret.png');

  // A leaves without sending it: it goes with A's other copies.
  await page.reload();
  await expect(sharedTile(manager(page, memberApi), 'secret.png')).toBeVisible();
  await manager(page, memberApi).getByRole('button', { name: 'Close' }).click();
  await logOut(page);
  await expect.poll(() => storedData(page)).not.toContain('secret.png');

  await logInHere(page, otherMemberApi);
  await expect(page.getByRole('heading', { name: otherMemberApi.username })).toBeVisible();
  await expect(manager(page, otherMemberApi)).toBeHidden();
  expect(await galleryCount(memberApi)).toBe(0);
  expect(await galleryCount(otherMemberApi)).toBe(0);
  await context.close();
});
