/**
 * Browsing a 2,000-photo gallery in the manager to its end: the real server and a real build, a
 * member whose 2,000 small photos went through the upload endpoint, and Chromium opening `View All`
 * and scrolling the manager until it says `Showing 2000 / 2000`. Reports the total time, how many
 * requests went out (pages of the API and thumbnails), the bytes on the wire, and the latency of
 * each page request (p50, p99). `npx tsx bench/gallery-browse.ts`
 * (`BENCH_STATIC_DIR=<build>` uses an existing build instead of building one.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Request, chromium } from 'playwright-core';
import sharp from 'sharp';
import { RESULTS_DIR, signupBenchMember, summary, table, writeResult } from './common.ts';
import { chromiumLaunchOptions, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

const PHOTOS = 2_000;
const UPLOADS_AT_ONCE = 4;
const RUNS = 3;

/** What the page code below uses of the DOM (the benchmarks compile without the DOM library). */
interface PageGlobals {
  document: {
    querySelector(
      selector: string,
    ): { scrollTo(x: number, y: number): void; scrollHeight: number } | null;
  };
}

const server = await serveAppBuild('orbit-bench-browse-');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const username = 'benchbrowse';
  const member = await signupBenchMember(server.origin, username);
  const photo = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#669bbc' },
  })
    .png()
    .toBuffer();
  console.log(`Uploading ${PHOTOS} photos…`);
  let next = 0;
  const uploader = async () => {
    while (next < PHOTOS) {
      const index = next++;
      const form = new FormData();
      form.append(
        'image',
        new Blob([new Uint8Array(photo)], { type: 'image/png' }),
        `p${index}.png`,
      );
      const response = await fetch(`${server.origin}/api/gallery`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${member.token}` },
        body: form,
      });
      if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, uploader));

  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      serviceWorkers: 'block',
    });
    await context.addCookies([sessionCookie(server.origin, { username, ...member })]);
    const page = await context.newPage();
    await page.goto(`${server.origin}/profile/${username}`);
    await page.locator('ul[aria-label="Photos"] .photo-open').first().waitFor();

    // From here on: every request the browse makes.
    const finished: Request[] = [];
    page.on('requestfinished', (request) => finished.push(request));
    const started = performance.now();
    await page.getByRole('button', { name: 'View All' }).click();
    const footer = page.locator('.manager-foot');
    await footer.getByText(/Showing \d+ \/ 2000/).waitFor();
    while (!(await footer.getByText(`Showing ${PHOTOS} / ${PHOTOS}`).isVisible())) {
      const before = await footer.textContent();
      await page.evaluate(() => {
        const body = (globalThis as unknown as PageGlobals).document.querySelector('.manager-body');
        body?.scrollTo(0, body.scrollHeight);
      });
      await page
        .locator('.manager-foot', { hasNotText: before ?? '' })
        .waitFor({ timeout: 30_000 });
    }
    const totalMs = performance.now() - started;

    const sized = await Promise.all(
      finished.map(async (request) => {
        const sizes = await request.sizes();
        const timing = request.timing();
        const url = new URL(request.url());
        return {
          api: url.pathname === '/api/gallery',
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
          ms: timing.responseEnd - timing.requestStart,
        };
      }),
    );
    const pages = sized.filter((item) => item.api);
    const pageMs = summary(pages.map((item) => item.ms));
    runs.push({
      totalMs: Math.round(totalMs),
      requests: sized.length,
      pageRequests: pages.length,
      bytes: sized.reduce((sum, item) => sum + item.bytes, 0),
      pageBytes: pages.reduce((sum, item) => sum + item.bytes, 0),
      pageP50Ms: Number(pageMs.p50.toFixed(1)),
      pageP99Ms: Number(pageMs.p99.toFixed(1)),
    });
    await context.close();
    console.log(`run ${run + 1}:`, runs.at(-1));
  }

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  const rows = [
    ['Run', 'Total', 'Requests (pages)', 'Bytes (pages)', 'Page p50', 'Page p99'],
    ...runs.map((item, index) => [
      String(index + 1),
      `${item.totalMs} ms`,
      `${item.requests} (${item.pageRequests})`,
      `${kb(item.bytes)} (${kb(item.pageBytes)})`,
      `${item.pageP50Ms} ms`,
      `${item.pageP99Ms} ms`,
    ]),
  ];
  const markdown = `# Gallery browse: the manager to the end of 2,000 photos

\`npx tsx bench/gallery-browse.ts\` — the real server (\`server/src/main.ts\`, SQLite) serving a
production build, a member with ${PHOTOS} photos uploaded through \`POST /api/gallery\` (64 × 48
PNGs, so thumbnails are small and the API's pages weigh in), Chromium at 1280 × 900 without the
service worker. Each run opens \`View All\` on the member's profile and scrolls the manager until
its footer says \`Showing ${PHOTOS} / ${PHOTOS}\`. Requests and bytes count everything the browse
fetched after the click (the API's pages and the thumbnails); bytes are what came over the wire
(compressed bodies plus headers). Page p50/p99 are per \`GET /api/gallery\` page request, from the
request's start to its last byte, as Chromium timed them.

${table(rows)}

Measured ${new Date().toISOString()} on a shared 2-core machine, other work running.
`;
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'gallery-browse.md'), markdown);
  console.log(markdown);
  writeResult('gallery-browse', { photos: PHOTOS, runs });
} finally {
  await browser.close();
  await server.stop();
}
