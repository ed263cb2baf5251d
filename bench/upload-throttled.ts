/**
 * Five 3 MB photos uploaded from the profile's Upload button in Chromium on a simulated slow
 * uplink (DevTools network throttling: 4 Mbit/s up, 40 ms latency): time from choosing the files
 * to the first photo in the grid, and to every photo in it with no upload tile left. One fresh
 * member per run.
 * `npx tsx bench/upload-throttled.ts` (`BENCH_STATIC_DIR=<build>` uses an existing build;
 * `BENCH_RUNS=n` changes the number of runs.)
 */
import { type Page, chromium } from 'playwright-core';
import { median, table, writeResult } from './common.ts';
import { noisePhotos, signupBenchMember } from './gallery-fixtures.ts';
import { chromiumLaunchOptions, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PHOTOS = 5;
const TARGET_BYTES = 3 * 1024 * 1024;
const UPLINK_BITS_PER_S = 4_000_000;
const LATENCY_MS = 40;

/** What the page code below uses of the DOM (the benchmarks compile without the DOM library). */
interface PageGlobals {
  document: { querySelectorAll(selector: string): ArrayLike<unknown> };
}

/** Waits until the grid holds `count` photos and, when `settled`, no upload tile is left. */
async function gridHolds(page: Page, count: number, settled: boolean): Promise<void> {
  await page.waitForFunction(
    ({ expected, done }) => {
      const { document } = globalThis as unknown as PageGlobals;
      return (
        document.querySelectorAll('ul[aria-label="Photos"] .photo-open').length >= expected &&
        (!done || document.querySelectorAll('.photo-tile.pending').length === 0)
      );
    },
    { expected: count, done: settled },
    { polling: 50, timeout: 300_000 },
  );
}

/**
 * Chooses the files through the Upload button; answers the time to the first photo in the grid
 * and to all of them with no upload tile left.
 */
async function timedUpload(page: Page, files: Buffer[]): Promise<{ first: number; all: number }> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const started = performance.now();
  await (
    await chooser
  ).setFiles(
    files.map((buffer, index) => ({
      name: `photo-${index + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer,
    })),
  );
  await gridHolds(page, 1, false);
  const first = performance.now() - started;
  await gridHolds(page, files.length, true);
  return { first, all: performance.now() - started };
}

const server = await serveAppBuild('orbit-bench-upload-throttled-');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const files = await noisePhotos(PHOTOS, TARGET_BYTES);
  const bytes = files.reduce((sum, file) => sum + file.byteLength, 0);
  const floorMs = ((bytes * 8) / UPLINK_BITS_PER_S) * 1000;
  console.log(
    `${PHOTOS} JPEGs, ${(bytes / PHOTOS / 1024 / 1024).toFixed(2)} MiB each on average; ` +
      `the uplink alone needs ${(floorMs / 1000).toFixed(1)} s for them`,
  );
  const times: number[] = [];
  const firsts: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const member = await signupBenchMember(server.origin, `benchup${run}${Date.now() % 100000}`);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      serviceWorkers: 'block',
    });
    await context.addCookies([sessionCookie(server.origin, { username: '', ...member })]);
    const page = await context.newPage();
    await page.goto(`${server.origin}/profile`);
    await page.getByText('No images yet. Upload to get started.').waitFor({ timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: LATENCY_MS,
      uploadThroughput: UPLINK_BITS_PER_S / 8,
      downloadThroughput: -1,
    });
    const { first, all } = await timedUpload(page, files);
    times.push(all);
    firsts.push(first);
    console.log(
      `run ${run}: all ${(all / 1000).toFixed(1)} s, first ${(first / 1000).toFixed(1)} s`,
    );
    await context.close();
  }
  const result = {
    runs: RUNS,
    photos: PHOTOS,
    bytes,
    uplinkBitsPerSecond: UPLINK_BITS_PER_S,
    latencyMs: LATENCY_MS,
    uplinkFloorMs: floorMs,
    medianMs: median(times),
    timesMs: times,
    firstPhotoMedianMs: median(firsts),
    firstPhotoTimesMs: firsts,
  };
  console.log(
    `\n${PHOTOS} photos, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${UPLINK_BITS_PER_S / 1e6} Mbit/s up, ${LATENCY_MS} ms latency`,
  );
  console.log(
    table([
      ['', 'median', 'runs'],
      [
        'all five in the grid',
        `${(result.medianMs / 1000).toFixed(1)} s`,
        times.map((time) => (time / 1000).toFixed(1)).join(', '),
      ],
      [
        'first photo in the grid',
        `${(result.firstPhotoMedianMs / 1000).toFixed(1)} s`,
        firsts.map((time) => (time / 1000).toFixed(1)).join(', '),
      ],
      ['uplink alone', `${(floorMs / 1000).toFixed(1)} s`, ''],
    ]),
  );
  console.log(`Written to ${writeResult('upload-throttled', result)}`);
} finally {
  await browser.close();
  await server.stop();
}
