import { type Locator, type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import { signedIn, test } from './helpers.ts';

// Real uploads and two browsers per test: more than the default 30 s when the machine is busy.
test.describe.configure({ timeout: 60_000 });

interface Picture {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Real images made on the spot, each a different colour so the grid can tell them apart. */
async function pictures(count: number): Promise<Picture[]> {
  const colours = ['#e4572e', '#29335c', '#f3a712', '#669bbc', '#a8c686'];
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const jpeg = index % 2 === 1;
      const image = sharp({
        create: {
          width: 640,
          height: 480,
          channels: 3,
          background: colours[index % colours.length] ?? '#000',
        },
      });
      return {
        name: `photo-${index + 1}.${jpeg ? 'jpg' : 'png'}`,
        mimeType: jpeg ? 'image/jpeg' : 'image/png',
        buffer: await (jpeg ? image.jpeg() : image.png()).toBuffer(),
      };
    }),
  );
}

const grid = (page: Page) => page.getByRole('list', { name: 'Photos' });
const viewer = (page: Page) => page.getByRole('dialog', { name: 'Image viewer' });

/** The grid's order, read from the thumbnails' addresses (each upload has its own). */
const gridOrder = (page: Page) =>
  grid(page)
    .locator('.photo-open img')
    .evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));

async function upload(page: Page, files: Picture[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles(files);
}

async function uploadAndWait(page: Page, files: Picture[]) {
  const before = await grid(page)
    .locator('.photo-open')
    .count()
    .catch(() => 0);
  await upload(page, files);
  await expect(grid(page).locator('.photo-open')).toHaveCount(before + files.length, {
    timeout: 15_000,
  });
  await expect(page.locator('.photo-tile.pending')).toHaveCount(0);
}

async function openMenuItem(page: Page, name: string) {
  await viewer(page).getByRole('button', { name: 'Image actions' }).click();
  await viewer(page).getByRole('menuitem', { name }).click();
}

const reactionButton = (page: Page, name: 'Like' | 'Dislike'): Locator =>
  viewer(page).getByRole('button', { name: new RegExp(`^${name}\\b`) });

test('the owner uploads three photos, pages through them, captions one and deletes one', async ({
  member: owner,
  memberPage: page,
  baseURL,
}) => {
  await expect(page.getByText('No images yet. Upload to get started.')).toBeVisible();

  // Each upload is held back a little, so the dimmed placeholders can be seen first.
  await page.route('**/api/gallery', async (route) => {
    if (route.request().method() === 'POST')
      await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await upload(page, await pictures(3));
  // Three go at once; each tile shows 'uploading…' while it is on the wire.
  await expect(page.locator('.photo-tile.pending')).toHaveCount(3);
  await expect(page.getByText('uploading…').first()).toBeVisible();
  await expect(grid(page).locator('.photo-open')).toHaveCount(3, { timeout: 15_000 });
  await expect(page.locator('.photo-tile.pending')).toHaveCount(0);
  // Three go at once, so any of them may be the last to finish.
  const uploaded = page.getByText(/^Uploaded photo-[1-3]\.(png|jpg)$/);
  await expect(uploaded).toBeVisible();
  await expect(uploaded).toBeHidden({ timeout: 4_000 });
  await page.unroute('**/api/gallery');

  // The manager lists them all.
  await page.getByRole('button', { name: 'View All' }).click();
  const manager = page.getByRole('dialog', { name: `Photos of @${owner.username}` });
  await expect(manager.getByText("Images in 'All'")).toBeVisible();
  await expect(manager.getByText('Showing 3 / 3')).toBeVisible();
  await manager.getByRole('button', { name: 'Close' }).click();
  await expect(manager).toBeHidden();

  // The viewer opens from a thumbnail and pages with the arrow keys; the address follows.
  await grid(page).locator('.photo-open').first().click();
  await expect(viewer(page)).toBeVisible();
  await expect(viewer(page).getByText('1 / 3')).toBeVisible();
  const firstId = new URL(page.url()).searchParams.get('image');
  expect(firstId).toBeTruthy();
  await page.keyboard.press('ArrowRight');
  await expect(viewer(page).getByText('2 / 3')).toBeVisible();
  const secondId = new URL(page.url()).searchParams.get('image');
  expect(secondId).not.toBe(firstId);
  await page.keyboard.press('ArrowRight');
  await expect(viewer(page).getByText('3 / 3')).toBeVisible();
  await expect(viewer(page).getByRole('button', { name: 'Next image' })).toHaveCount(0);
  await page.keyboard.press('ArrowLeft');
  await expect(viewer(page).getByText('2 / 3')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`image=${secondId}`));

  // Caption: Cancel restores, Save keeps.
  await openMenuItem(page, 'Edit caption');
  await viewer(page).getByLabel('Caption').fill('Not this one');
  await viewer(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(viewer(page).getByText('No caption')).toBeVisible();
  await openMenuItem(page, 'Edit caption');
  await viewer(page).getByLabel('Caption').fill('Saturn at dusk');
  await viewer(page).getByRole('button', { name: 'Save' }).click();
  await expect(viewer(page).getByText('Saturn at dusk')).toBeVisible();
  await expect(viewer(page).getByRole('img', { name: 'Saturn at dusk' })).toBeVisible();

  // Share link copies the address of this image.
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL ?? '' });
  await openMenuItem(page, 'Share link');
  await expect(viewer(page).getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${baseURL}/profile/${owner.username}?image=${secondId}`,
  );
  await expect(viewer(page).getByText('Link copied')).toBeHidden({ timeout: 3_000 });

  // Escape closes; the shared link opens the viewer on that image.
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  expect(new URL(page.url()).searchParams.get('image')).toBeNull();
  await page.goto(`/profile/${owner.username}?image=${secondId}`);
  await expect(viewer(page).getByText('2 / 3')).toBeVisible();
  await expect(viewer(page).getByText('Saturn at dusk')).toBeVisible();

  // A delete the server refuses: the image goes at once, then comes back with the reason.
  await page.route('**/api/gallery/*', (route) =>
    route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' })
      : route.continue(),
  );
  await openMenuItem(page, 'Delete image');
  await page
    .getByRole('dialog', { name: 'Delete image?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(viewer(page).getByText('2 / 2')).toBeVisible();
  await expect(viewer(page).getByText('500 Internal Server Error {"error":"boom"}')).toBeVisible();
  await expect(viewer(page).getByText('3 / 3')).toBeVisible();
  await page.unroute('**/api/gallery/*');
  await page.keyboard.press('ArrowLeft');
  await expect(viewer(page).getByText('Saturn at dusk')).toBeVisible();

  // Delete through the confirm dialog: the next image moves into place.
  await openMenuItem(page, 'Delete image');
  const confirm = page.getByRole('dialog', { name: 'Delete image?' });
  await expect(confirm.getByText('This action cannot be undone.')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(viewer(page).getByText('2 / 2')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('image')).not.toBe(secondId);
  await page.keyboard.press('ArrowLeft');
  await expect(viewer(page).getByText('1 / 2')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(grid(page).locator('.photo-open')).toHaveCount(2);
  await page.reload();
  await expect(grid(page).locator('.photo-open')).toHaveCount(2);
  await page.context().close();
});

test('upload refusals say why on their tiles until dismissed', async ({ memberPage: page }) => {
  await upload(page, [
    { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(20 * 1024 * 1024 + 1) },
  ]);
  await expect(page.getByText('Rejected huge.png: >20MB').first()).toBeVisible();
  await expect(page.locator('.photo-tile.pending')).toHaveCount(0);
  await upload(page, [
    { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text') },
  ]);
  await expect(page.getByText('Rejected notes.png: not a supported image').first()).toBeVisible();
  // Both refusals stay on their tiles until dismissed.
  await expect(page.locator('.upload-failed')).toHaveCount(2);
  await page.getByRole('button', { name: 'Dismiss huge.png' }).click();
  await page.getByRole('button', { name: 'Dismiss notes.png' }).click();
  await expect(page.getByText('No images yet. Upload to get started.')).toBeVisible();
  await page.context().close();
});

test('a like from another member reaches the owner’s open viewer; a visitor cannot upload or delete', async ({
  member: owner,
  memberPage: ownerPage,
  otherMember: visitor,
  browser,
}) => {
  await uploadAndWait(ownerPage, await pictures(1));
  await grid(ownerPage).locator('.photo-open').first().click();
  await expect(reactionButton(ownerPage, 'Like')).toContainText('0');

  const visitorPage = await signedIn(browser, visitor);
  await visitorPage.goto(`/profile/${owner.username}`);
  await expect(grid(visitorPage).locator('.photo-open')).toHaveCount(1);
  await expect(visitorPage.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
  await expect(grid(visitorPage).getByRole('button', { name: /^Reorder/ })).toHaveCount(0);
  await grid(visitorPage).locator('.photo-open').first().click();
  await expect(viewer(visitorPage).getByText('Online')).toBeVisible();
  await viewer(visitorPage).getByRole('button', { name: 'Image actions' }).click();
  await expect(viewer(visitorPage).getByRole('menuitem', { name: 'Share link' })).toBeVisible();
  await expect(viewer(visitorPage).getByRole('menuitem', { name: 'Delete image' })).toHaveCount(0);
  await expect(viewer(visitorPage).getByRole('menuitem', { name: 'Edit caption' })).toHaveCount(0);
  await visitorPage.keyboard.press('Escape');
  await expect(viewer(visitorPage)).toBeVisible();
  // The visitor's other device, on the same photo: it hears the visitor's own reaction over the
  // socket, the only way it can (another browser shares no tab channel).
  const otherDevice = await signedIn(browser, visitor);
  await otherDevice.goto(`/profile/${owner.username}`);
  await grid(otherDevice).locator('.photo-open').first().click();
  await expect(reactionButton(otherDevice, 'Like')).toHaveAttribute('aria-pressed', 'false');

  await reactionButton(visitorPage, 'Like').click();
  await expect(reactionButton(visitorPage, 'Like')).toHaveAttribute('aria-pressed', 'true');
  await expect(reactionButton(ownerPage, 'Like')).toContainText('1');
  await expect(reactionButton(ownerPage, 'Like')).toHaveAttribute('aria-pressed', 'false');
  await expect(reactionButton(otherDevice, 'Like')).toContainText('1');
  await expect(reactionButton(otherDevice, 'Like')).toHaveAttribute('aria-pressed', 'true');

  // Dislike takes the like away, on every screen.
  await reactionButton(visitorPage, 'Dislike').click();
  await expect(reactionButton(visitorPage, 'Like')).toHaveAttribute('aria-pressed', 'false');
  await expect(reactionButton(ownerPage, 'Like')).toContainText('0');
  await expect(reactionButton(ownerPage, 'Dislike')).toContainText('1');
  await expect(reactionButton(otherDevice, 'Like')).toHaveAttribute('aria-pressed', 'false');
  await expect(reactionButton(otherDevice, 'Dislike')).toHaveAttribute('aria-pressed', 'true');
  await expect(reactionButton(otherDevice, 'Dislike')).toContainText('1');
  await otherDevice.context().close();

  // The owner leaves: the visitor's viewer says so.
  await ownerPage.context().close();
  await expect(viewer(visitorPage).getByText('Offline')).toBeVisible();
  await visitorPage.context().close();
});

test('the owner reorders by keyboard and by drag, and the order survives a reload', async ({
  memberPage: page,
}) => {
  await uploadAndWait(page, await pictures(3));
  const [a, b, c] = await gridOrder(page);

  // Keyboard: Space picks photo 1 up, ArrowRight moves it, Space drops it.
  const saved = () =>
    page.waitForResponse((response) => response.url().endsWith('/api/gallery/reorder'));
  let save = saved();
  await grid(page).getByRole('button', { name: 'Reorder photo 1 of 3' }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Photo moved to position 2 of 3.')).toBeAttached();
  await page.keyboard.press('Space');
  expect((await save).status()).toBe(200);
  expect(await gridOrder(page)).toEqual([b, a, c]);

  // Escape cancels a move.
  await grid(page).getByRole('button', { name: 'Reorder photo 1 of 3' }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  expect(await gridOrder(page)).toEqual([b, a, c]);

  // Pointer: drag the last photo's handle onto the first photo.
  save = saved();
  const handle = grid(page).getByRole('button', { name: 'Reorder photo 3 of 3' });
  const target = grid(page).locator('.photo-tile').first();
  const from = await handle.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('grid not laid out');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 3, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  expect((await save).status()).toBe(200);
  expect(await gridOrder(page)).toEqual([c, b, a]);

  await page.reload();
  await expect(grid(page).locator('.photo-open')).toHaveCount(3);
  expect(await gridOrder(page)).toEqual([c, b, a]);
  await page.context().close();
});

test('two rows on the profile at each width, and a manager that pages through 2,000 images', async ({
  member: owner,
  memberPage: page,
}) => {
  // A large gallery answered by the test itself: tiny inline pictures, so no file is fetched.
  const dot = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"><rect width="4" height="3" fill="#369"/></svg>')}`;
  const person = { _id: 'o', id: 'o', username: owner.username, profileImage: '' };
  const images = Array.from({ length: 2_000 }, (_, index) => ({
    _id: `img-${index}`,
    id: `img-${index}`,
    filename: dot,
    path: dot,
    url: dot,
    src: dot,
    thumbnailUrl: dot,
    width: 4,
    height: 3,
    folder: 'All',
    caption: `Picture ${index + 1}`,
    createdAt: '2025-01-01T00:00:00.000Z',
    likes: [],
    dislikes: [],
    user: person,
    owner: person,
  }));
  await page.route('**/api/gallery?*', (route) => route.fulfill({ json: { images } }));
  await page.reload();

  for (const [width, columns] of [
    [1280, 4],
    [800, 3],
    [600, 2],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    // The first width waits for the 2,000 images' answer to be read, which a busy machine slows.
    await expect(grid(page).locator('.photo-open')).toHaveCount(columns * 2, { timeout: 15_000 });
  }

  await page.getByRole('button', { name: 'View All' }).click();
  const manager = page.getByRole('dialog', { name: `Photos of @${owner.username}` });
  await expect(manager.getByText('Showing 60 / 2000')).toBeVisible();
  await expect(manager.locator('.photo-open')).toHaveCount(60);
  await manager.locator('.manager-body').evaluate((body) => body.scrollTo(0, body.scrollHeight));
  await expect(manager.getByText('Showing 120 / 2000')).toBeVisible();
  await manager.getByRole('button', { name: 'Show more' }).click();
  await expect(manager.locator('.photo-open')).not.toHaveCount(120);

  // The viewer opens over the manager on the image clicked there.
  await manager.getByRole('button', { name: 'Picture 3', exact: true }).click();
  await expect(viewer(page).getByText('3 / 2000')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  await expect(manager).toBeVisible();
  await page.context().close();
});

test('the owner moves a photo to a new folder from the viewer and uploads into a folder', async ({
  memberPage: page,
}) => {
  await uploadAndWait(page, await pictures(2));

  await grid(page).locator('.photo-open').first().click();
  await viewer(page).getByLabel('Folder').selectOption('New folder…');
  await viewer(page).getByLabel('New folder name').fill('Rings');
  await viewer(page).getByRole('button', { name: 'Add' }).click();
  await expect(viewer(page).getByLabel('Folder')).toHaveValue('Rings');
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();

  const folder = page.getByRole('region', { name: 'Photos' }).getByLabel('Folder');
  await folder.selectOption('Rings');
  await expect(grid(page).locator('.photo-open')).toHaveCount(1);
  await expect(page.getByText('New uploads go to ‘Rings’.')).toBeVisible();
  await uploadAndWait(page, await pictures(1));
  await expect(grid(page).locator('.photo-open')).toHaveCount(2);
  await folder.selectOption('All');
  await expect(grid(page).locator('.photo-open')).toHaveCount(3);

  // A folder nobody has used yet shows the visitor-style empty text.
  await folder.selectOption('New folder…');
  await page.getByLabel('New folder name').fill('Empty');
  await page.getByLabel('New folder name').press('Enter');
  await expect(page.getByText('No images to show.')).toBeVisible();
  await page.context().close();
});

test('a folder whose only photo is deleted is gone from the profile’s and the manager’s lists', async ({
  member: owner,
  memberPage: page,
}) => {
  await uploadAndWait(page, await pictures(2));
  await page.getByRole('button', { name: `Photo 1 of 2 by @${owner.username}` }).click();
  await viewer(page).getByLabel('Folder').selectOption('New folder…');
  await viewer(page).getByLabel('New folder name').fill('Moons');
  await viewer(page).getByRole('button', { name: 'Add' }).click();
  await expect(viewer(page).getByLabel('Folder')).toHaveValue('Moons');
  // The name field has closed: Escape now closes the viewer, not the field.
  await expect(viewer(page).getByLabel('New folder name')).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();

  const folder = page.getByRole('region', { name: 'Photos' }).getByLabel('Folder');
  await folder.selectOption('Moons');
  await grid(page)
    .getByRole('button', { name: `Photo 1 of 1 by @${owner.username}` })
    .click();
  await openMenuItem(page, 'Delete image');
  await page
    .getByRole('dialog', { name: 'Delete image?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(viewer(page)).toBeHidden();

  // The folder is gone from the profile's list, which is back on All with the other photo.
  await expect(folder).toHaveValue('All');
  await expect(folder.locator('option', { hasText: 'Moons' })).toHaveCount(0);
  await expect(grid(page).locator('.photo-open')).toHaveCount(1);
  // The manager offers the same folders.
  await page.getByRole('button', { name: 'View All' }).click();
  const manager = page.getByRole('dialog', { name: `Photos of @${owner.username}` });
  const managerFolder = manager.getByLabel('Folder');
  await expect(managerFolder).toHaveValue('All');
  await expect(managerFolder.locator('option', { hasText: 'Moons' })).toHaveCount(0);
  await manager.getByRole('button', { name: 'Refresh' }).click();
  await expect(managerFolder.locator('option', { hasText: 'Moons' })).toHaveCount(0);
  await manager.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(folder.locator('option', { hasText: 'Moons' })).toHaveCount(0);
});
