/**
 * The start-up budget, which `npm test` checks (its `budget` step): the gzipped JavaScript that
 * /landing loads in Chromium, against a baseline of React + ReactDOM + react-router alone built the
 * same way; the service worker's size; and what a signed-in member's own profile (an avatar and 3
 * photos) loads, which must not include the gallery viewer, the manager or settings.
 * `npx tsx bench/bundle.ts` (`BENCH_STATIC_DIR=<build>` measures an existing build).
 * Budget: /landing at most the baseline, sw.js at most 15 kB gzipped; the run fails over either.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { chromiumLaunchOptions } from '../e2e/chromium.ts';
import { ROOT, table, writeResult } from './common.ts';
import { seedMember, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

/** /landing's JavaScript against the framework's alone. */
const LANDING_RATIO_MAX = 1;
const WORKER_GZIP_MAX = 15 * 1024;

const gzipSize = (data: Uint8Array) => gzipSync(data, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

interface Script {
  url: string;
  bytes: number;
  gzip: number;
}

/** The scripts a page loads, by path; `cookie` signs the browser in first. */
async function pageScripts(
  origin: string,
  pagePath: string,
  cookie?: ReturnType<typeof sessionCookie>,
): Promise<Script[]> {
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext();
    if (cookie) await context.addCookies([cookie]);
    const page = await context.newPage();
    const pending: Promise<Script | null>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      const contentType = response.headers()['content-type'] ?? '';
      if (type !== 'script' && !contentType.includes('javascript')) return;
      pending.push(
        response
          .body()
          .then((body) => ({
            url: new URL(response.url()).pathname,
            bytes: body.length,
            gzip: gzipSize(body),
          }))
          .catch(() => null),
      );
    });
    // Not 'networkidle': the realtime connection keeps the network busy. Lazy chunks of the
    // route arrive right after the load event, so give them a moment.
    await page.goto(`${origin}${pagePath}`, { waitUntil: 'load' });
    await page.waitForTimeout(2_000);
    const scripts = (await Promise.all(pending)).filter(
      (script): script is Script => script !== null,
    );
    return [...new Map(scripts.map((script) => [script.url, script])).values()];
  } finally {
    await browser.close();
  }
}

/** A trivial router app on the same libraries, built by Vite with the app's React plugin. */
async function baselineScripts(): Promise<Script[]> {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'orbit-bench-baseline');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>',
  );
  fs.writeFileSync(
    path.join(dir, 'main.tsx'),
    [
      "import { createRoot } from 'react-dom/client';",
      "import { RouterProvider, createBrowserRouter } from 'react-router-dom';",
      "const router = createBrowserRouter([{ path: '*', element: <p>Hello</p> }]);",
      "createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />);",
      '',
    ].join('\n'),
  );
  const outDir = path.join(dir, 'dist');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, target: 'es2022', emptyOutDir: true },
  });
  const assets = path.join(outDir, 'assets');
  const scripts = fs
    .readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => {
      const body = fs.readFileSync(path.join(assets, name));
      return { url: `/assets/${name}`, bytes: body.length, gzip: gzipSize(body) };
    });
  fs.rmSync(dir, { recursive: true, force: true });
  return scripts;
}

const app = await serveAppBuild('orbit-bench-bundle-');
let landing: Script[];
let profile: Script[];
let worker: Script;
try {
  const workerBody = fs.readFileSync(path.join(app.staticDir, 'sw.js'));
  worker = { url: '/sw.js', bytes: workerBody.length, gzip: gzipSize(workerBody) };
  landing = await pageScripts(app.origin, '/landing');
  const member = await seedMember(app.origin, 'benchbundle', 3);
  profile = await pageScripts(
    app.origin,
    `/profile/${member.username}`,
    sessionCookie(app.origin, member),
  );
} finally {
  await app.stop();
}
const baseline = await baselineScripts();
/** Code a profile shows only when asked: it must not load with the page. */
const ON_DEMAND = /\/(GalleryViewer|GalleryManager|GalleryModal|SettingsPage)-/;
const onDemandLoaded = profile.filter((script) => ON_DEMAND.test(script.url));
const sum = (scripts: Script[], key: 'bytes' | 'gzip') =>
  scripts.reduce((total, script) => total + script[key], 0);
const ratio = sum(landing, 'gzip') / sum(baseline, 'gzip');

console.log('\nJavaScript loaded by /landing');
console.log(
  table([['file', 'bytes', 'gzip -9'], ...landing.map((s) => [s.url, kb(s.bytes), kb(s.gzip)])]),
);
console.log('\nJavaScript loaded by a signed-in /profile/{username}');
console.log(
  table([['file', 'bytes', 'gzip -9'], ...profile.map((s) => [s.url, kb(s.bytes), kb(s.gzip)])]),
);
console.log('\nTotals');
console.log(
  table([
    ['', 'bytes', 'gzip -9'],
    ['/landing', kb(sum(landing, 'bytes')), kb(sum(landing, 'gzip'))],
    ['/profile/{username}', kb(sum(profile, 'bytes')), kb(sum(profile, 'gzip'))],
    ['React + ReactDOM + react-router', kb(sum(baseline, 'bytes')), kb(sum(baseline, 'gzip'))],
  ]),
);
const overBudget = [
  ...(ratio > LANDING_RATIO_MAX
    ? [
        `/landing loads ${(ratio * 100).toFixed(1)}% of the baseline (budget: ${LANDING_RATIO_MAX * 100}%)`,
      ]
    : []),
  ...(worker.gzip > WORKER_GZIP_MAX
    ? [`sw.js is ${kb(worker.gzip)} gzipped (budget: ${kb(WORKER_GZIP_MAX)})`]
    : []),
  ...onDemandLoaded.map((script) => `the profile loaded ${script.url}, code it does not show`),
];
console.log(
  `\n/landing is ${(ratio * 100).toFixed(1)}% of the baseline (budget: at most ${LANDING_RATIO_MAX * 100}%).`,
);
console.log(
  `sw.js is ${kb(worker.bytes)}, ${kb(worker.gzip)} gzipped (budget: ${kb(WORKER_GZIP_MAX)}).`,
);
console.log(
  onDemandLoaded.length
    ? `The profile loaded code it does not show: ${onDemandLoaded.map((s) => s.url).join(', ')}`
    : 'The profile loaded no viewer, manager or settings code.',
);
const file = writeResult('bundle', {
  landing: { scripts: landing, bytes: sum(landing, 'bytes'), gzip: sum(landing, 'gzip') },
  profile: {
    scripts: profile,
    bytes: sum(profile, 'bytes'),
    gzip: sum(profile, 'gzip'),
    onDemandLoaded: onDemandLoaded.map((script) => script.url),
  },
  baseline: { scripts: baseline, bytes: sum(baseline, 'bytes'), gzip: sum(baseline, 'gzip') },
  ratio,
  worker,
});
console.log(`Written to ${file}`);
if (overBudget.length) {
  console.error(`\nOver the start-up budget:\n${overBudget.map((line) => `- ${line}`).join('\n')}`);
  process.exitCode = 1;
}
