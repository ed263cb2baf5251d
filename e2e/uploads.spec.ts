import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Page, type Request, type Route, expect, test } from '@playwright/test';
import sharp from 'sharp';
import { addPhotos, createMember, logIn } from './helpers.ts';

// Real uploads on a busy machine: more than the default 30 s.
test.describe.configure({ timeout: 60_000 });

interface Picture {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

async function photo(name: string, colour: string): Promise<Picture> {
  const buffer = await sharp({
    create: { width: 320, height: 240, channels: 3, background: colour },
  })
    .jpeg()
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** A 2 x 2 BMP: a picture the browser shows, in a format the server does not take. */
function bmp(name: string): Picture {
  const rowBytes = 8; // two 3-byte pixels, padded to 4 bytes
  const pixels = rowBytes * 2;
  const buffer = Buffer.alloc(54 + pixels);
  buffer.write('BM', 0, 'ascii');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(54, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(2, 18);
  buffer.writeInt32LE(2, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(24, 28);
  buffer.writeUInt32LE(pixels, 34);
  buffer.fill(0x80, 54);
  return { name, mimeType: 'image/bmp', buffer };
}

/** An iPhone's HEVC photo, 640 x 480 (what the server's tests upload too). */
const HEIC_PHOTO = path.join(import.meta.dirname, '../server/test/fixtures/photo-640.heic');

/** Tests whose `page` is a new member's, logged in, on their own profile with no images yet. */
const ownerTest = test.extend({
  page: async ({ page, request, baseURL }, use) => {
    // The member is made from a request context of its own: the page's would share its cookie.
    const owner = await createMember(request, baseURL ?? '');
    await logIn(page, owner);
    await expect(page).toHaveURL(/\/profile\//);
    await expect(page.getByText('No images yet. Upload to get started.')).toBeVisible();
    await use(page);
  },
});

async function upload(page: Page, files: Picture[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles(files);
}

const isUpload = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === '/api/gallery';
const grid = (page: Page) => page.getByRole('list', { name: 'Photos' });
const failures = (page: Page) => page.getByRole('list', { name: 'Not uploaded' });
const statusLine = (page: Page) => page.locator('.upload-status');

ownerTest(
  'a renamed text file is refused in the browser: nothing is sent, no broken picture',
  async ({ page }) => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (isUpload(request)) sent.push(request.url());
    });

    // Ten of them: past the grid's two rows, every tile stays on the page with its own words.
    const files = Array.from({ length: 10 }, (_, index) => ({
      name: `notes-${index + 1}.png`,
      mimeType: 'image/png',
      buffer: Buffer.from(`just some text, number ${index + 1}`),
    }));
    await upload(page, files);
    const failed = failures(page).getByRole('listitem');
    await expect(failed).toHaveCount(10);
    for (const [index, file] of files.entries()) {
      await expect(failed.nth(index)).toContainText(`Rejected ${file.name}: not a supported image`);
    }
    await expect(grid(page).locator('img')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Retry notes/ })).toHaveCount(0);

    const dismiss = page.getByRole('button', { name: 'Dismiss notes-10.png' });
    await dismiss.scrollIntoViewIfNeeded();
    const box = await dismiss.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
    await dismiss.click();
    await expect(failed).toHaveCount(9);
    // Focus stays among the tiles: on the neighbour's button, so the keyboard can go on dismissing.
    await expect(page.getByRole('button', { name: 'Dismiss notes-9.png' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(failed).toHaveCount(8);
    await expect(page.getByText('Rejected notes-10.png: not a supported image')).toHaveCount(0);
    // Dismissing the rest from the keyboard; after the last, focus lands on Upload, not the page.
    for (let left = 7; left >= 0; left--) {
      await page.keyboard.press('Enter');
      await expect(failed).toHaveCount(left);
    }
    await expect(failures(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeFocused();
    expect(sent).toEqual([]);
  },
);

ownerTest(
  'a file the server refuses keeps its plain error on its tile, and Retry sends it again',
  async ({ page }) => {
    // The server's own refusal, in its own words, stays on the tile after the status line clears.
    await upload(page, [bmp('scan.bmp')]);
    const refusal =
      'Failed scan.bmp: That file is not a supported image. Use JPEG, PNG, WebP, GIF, AVIF or HEIC.';
    const tile = failures(page).getByRole('listitem', { name: 'scan.bmp not uploaded' });
    await expect(tile).toContainText(refusal);
    // The server refused the file itself: sending it again cannot help, so no Retry.
    await expect(page.getByRole('button', { name: 'Retry scan.bmp' })).toHaveCount(0);
    await expect(statusLine(page)).toHaveText(refusal);
    await expect(statusLine(page)).toHaveText('', { timeout: 5_000 });
    await expect(tile).toContainText(refusal);
    await expect(page.getByText('{"error"')).toHaveCount(0);
    // Readable in every theme, buttons named: WCAG A/AA on the failed tile.
    for (const theme of ['normal1', 'light', 'dark', 'normal2', 'custom']) {
      await page.evaluate(
        (name) => document.documentElement.setAttribute('data-theme', name),
        theme,
      );
      const result = await new AxeBuilder({ page })
        .include('ul[aria-label="Not uploaded"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      expect({ theme, violations: result.violations.map((violation) => violation.id) }).toEqual({
        theme,
        violations: [],
      });
    }
    await expect(page.getByText('Unsupported Media Type')).toHaveCount(0);
    await page.getByRole('button', { name: 'Dismiss scan.bmp' }).click();
    await expect(tile).toHaveCount(0);

    // The first attempt at a good photo fails on the server's side; Retry goes through for real.
    let attempts = 0;
    await page.route('**/api/gallery', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      attempts += 1;
      if (attempts === 1)
        return route.fulfill({
          status: 500,
          json: { error: 'The photo store is busy. Try again.' },
        });
      return route.continue();
    });
    await upload(page, [await photo('sunset.jpg', '#e4572e')]);
    const failed = failures(page).getByRole('listitem', { name: 'sunset.jpg not uploaded' });
    await expect(failed).toContainText('Failed sunset.jpg: The photo store is busy. Try again.');
    await page.getByRole('button', { name: 'Retry sunset.jpg' }).click();
    await expect(grid(page).locator('.photo-open')).toHaveCount(1);
    await expect(page.locator('.photo-tile.pending, .upload-failed')).toHaveCount(0);
    await expect(statusLine(page)).toHaveText('Uploaded sunset.jpg');
    expect(attempts).toBe(2);
  },
);

ownerTest(
  'failed files collect above the grid and take none of its places',
  async ({ page, baseURL }) => {
    await addPhotos(page, baseURL ?? '', 8);
    await page.reload();
    // Two rows of four at this width.
    await expect(grid(page).locator('.photo-open')).toHaveCount(8);

    await upload(
      page,
      ['a', 'b', 'c', 'd'].map((name) => bmp(`${name}.bmp`)),
    );
    await expect(failures(page).getByRole('listitem')).toHaveCount(4);
    await expect(grid(page).locator('.photo-open')).toHaveCount(8);
    await expect(grid(page).locator('.upload-failed')).toHaveCount(0);
    // Above the grid, each with its words and Dismiss.
    const listBox = await failures(page).boundingBox();
    const gridBox = await grid(page).boundingBox();
    expect((listBox?.y ?? 0) + (listBox?.height ?? 0)).toBeLessThanOrEqual(gridBox?.y ?? 0);
    for (const name of ['a', 'b', 'c', 'd']) {
      const item = failures(page).getByRole('listitem', { name: `${name}.bmp not uploaded` });
      await expect(item).toContainText(`Failed ${name}.bmp: That file is not a supported image.`);
      await expect(item.getByRole('button', { name: `Dismiss ${name}.bmp` })).toBeVisible();
    }
    for (const name of ['a', 'b', 'c', 'd'])
      await page.getByRole('button', { name: `Dismiss ${name}.bmp` }).click();
    await expect(failures(page)).toHaveCount(0);
    await expect(grid(page).locator('.photo-open')).toHaveCount(8);
  },
);

ownerTest('an iPhone HEIC photo uploads and shows in the grid', async ({ page }) => {
  await upload(page, [
    {
      name: 'IMG_0001.HEIC',
      mimeType: 'image/heic',
      buffer: await fs.readFile(HEIC_PHOTO),
    },
  ]);
  const tile = grid(page).locator('.photo-open');
  await expect(tile).toHaveCount(1, { timeout: 15_000 });
  await expect(statusLine(page)).toHaveText('Uploaded IMG_0001.HEIC');
  await expect(failures(page)).toHaveCount(0);
  // The thumbnail is a picture the browser shows, made from the HEVC photo.
  await expect
    .poll(() => tile.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(480);
});

ownerTest(
  'three files go at once, in the order picked, and the status says Uploading n of 3…',
  async ({ page }) => {
    // Every upload is held at the browser's edge; all three reach it before any is let through.
    const held: Route[] = [];
    let threeInFlight: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => (threeInFlight = resolve));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/gallery', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      held.push(route);
      if (held.length === 3) threeInFlight();
      await gate;
      return route.continue();
    });

    // Every text the status line shows, however briefly, in order.
    await page.evaluate(() => {
      const line = document.querySelector('.upload-status');
      const seen: string[] = [];
      (window as unknown as { statusTexts: string[] }).statusTexts = seen;
      if (!line) return;
      new MutationObserver(() => {
        const text = line.textContent ?? '';
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(line, { childList: true, characterData: true, subtree: true });
    });
    await upload(page, [
      await photo('first.jpg', '#29335c'),
      await photo('second.jpg', '#f3a712'),
      await photo('third.jpg', '#669bbc'),
    ]);
    await inFlight;
    const pending = grid(page).locator('.photo-tile.pending');
    await expect(pending).toHaveCount(3);
    await expect
      .poll(() =>
        pending.evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('aria-label'))),
      )
      .toEqual(['first.jpg uploading', 'second.jpg uploading', 'third.jpg uploading']);
    await expect(statusLine(page)).toHaveText('Uploading 1 of 3…');

    release();
    await expect(grid(page).locator('.photo-open')).toHaveCount(3, { timeout: 15_000 });
    await expect(pending).toHaveCount(0);
    await expect(statusLine(page)).toHaveText(/^Uploaded (first|second|third)\.jpg$/);
    const texts = await page.evaluate(
      () => (window as unknown as { statusTexts: string[] }).statusTexts,
    );
    expect(texts.slice(0, 2)).toEqual(['Selected 3 file(s)…', 'Uploading 1 of 3…']);
    expect(texts.at(-1)).toMatch(/^Uploaded (first|second|third)\.jpg$/);
  },
);
