/**
 * Offline start against online start: reload of /profile/{username} (a member with 24 photos, the
 * service worker in control and its caches warm) to every thumbnail of the grid painted, in one
 * Chromium, alternating online and offline (`context.setOffline`). `npx tsx bench/offline-start.ts`
 * (`BENCH_STATIC_DIR=<build>` uses an existing build instead of building one.)
 */
import { type Page, chromium } from 'playwright-core';
import { median, percentile, table, writeResult } from './common.ts';
import { chromiumLaunchOptions, seedMember, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

const RUNS = 15;
const PHOTOS = 24;

const THUMBNAILS = 'ul[aria-label="Photos"] .photo-open img';

/** What the page code below uses of the DOM (the benchmarks compile without the DOM library). */
interface PageGlobals {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ complete: boolean; naturalWidth: number }>;
  };
  navigator: { serviceWorker: { controller: object | null } };
  performance: { now(): number };
}

/**
 * Waits, frame by frame, until the profile shows `count` thumbnails that have all loaded; answers
 * the time since the navigation started, in the page's own clock.
 */
async function thumbnailsPainted(page: Page, count: number): Promise<number> {
  const handle = await page.waitForFunction(
    ({ selector, expected }) => {
      const { document, performance } = globalThis as unknown as PageGlobals;
      const images = Array.from(document.querySelectorAll(selector));
      const painted =
        images.length === expected &&
        images.every((image) => image.complete && image.naturalWidth > 0);
      return painted ? performance.now() : false;
    },
    { selector: THUMBNAILS, expected: count },
    { polling: 'raf', timeout: 30_000 },
  );
  return (await handle.jsonValue()) as number;
}

async function visibleThumbnails(page: Page): Promise<number> {
  await page.locator(THUMBNAILS).first().waitFor();
  return page.locator(THUMBNAILS).count();
}

async function timedReload(page: Page, count: number): Promise<number> {
  await page.reload({ waitUntil: 'commit' });
  return thumbnailsPainted(page, count);
}

function summary(times: readonly number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { medianMs: median(times), p90Ms: percentile(sorted, 90), timesMs: times };
}

const server = await serveAppBuild('orbit-bench-offline-');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  console.log(`Seeding a member with ${PHOTOS} photos…`);
  const member = await seedMember(server.origin, 'benchoffline', PHOTOS);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([sessionCookie(server.origin, member)]);
  const page = await context.newPage();
  await page.goto(`${server.origin}/profile/${member.username}`);
  await page.waitForFunction(
    () => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null,
    undefined,
    { timeout: 30_000 },
  );
  console.log('The service worker controls the page; warming its caches…');
  // Under the worker: the first reload fills its caches; the second checks they answer offline.
  await page.reload();
  const count = await visibleThumbnails(page);
  await thumbnailsPainted(page, count);
  await context.setOffline(true);
  await timedReload(page, count);
  await context.setOffline(false);
  await timedReload(page, count);

  const online: number[] = [];
  const offline: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    online.push(await timedReload(page, count));
    await context.setOffline(true);
    offline.push(await timedReload(page, count));
    await context.setOffline(false);
    console.log(
      `run ${run}: online ${online.at(-1)?.toFixed(0)} ms, offline ${offline.at(-1)?.toFixed(0)} ms`,
    );
  }

  const result = {
    runs: RUNS,
    photos: PHOTOS,
    thumbnailsShown: count,
    online: summary(online),
    offline: summary(offline),
    ratio: median(offline) / median(online),
  };
  console.log(
    `\n/profile/{username}: reload → ${count} thumbnails painted (${RUNS} runs each, warm caches)`,
  );
  console.log(
    table([
      ['', 'median', 'p90'],
      ['online', `${result.online.medianMs.toFixed(0)} ms`, `${result.online.p90Ms.toFixed(0)} ms`],
      [
        'offline',
        `${result.offline.medianMs.toFixed(0)} ms`,
        `${result.offline.p90Ms.toFixed(0)} ms`,
      ],
    ]),
  );
  console.log(`offline / online: ${result.ratio.toFixed(2)}`);
  console.log(`Written to ${writeResult('offline-start', result)}`);
} finally {
  await browser.close();
  await server.stop();
}
