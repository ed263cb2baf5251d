// Takes the install sheet's screenshots (the manifest's `screenshots`): a seeded member's profile,
// wide (1280x800) and narrow (390x844), from a production build in Chromium, into
// public/screenshots/. Run `node scripts/make-screenshots.mjs` after the profile page changes.
//   SCREENSHOT_PORT  where the temporary server listens (default 5183)
//   STATIC_DIR       an existing production build to serve (default: a fresh build in a temp folder)
//   CHROME_PATH      Chromium (default /usr/bin/chromium)
/* global document, window -- the page.evaluate callbacks below run in the browser. */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public', 'screenshots');
const port = Number(process.env.SCREENSHOT_PORT ?? 5183);
const origin = `http://localhost:${port}`;
const PASSWORD = 'Screen$hot-2026';
/** The install sheet shows these sizes as they are; keep each file small. */
const SHOTS = [
  { file: 'profile-wide.png', width: 1280, height: 800, mobile: false },
  { file: 'profile-narrow.png', width: 390, height: 844, mobile: true },
];
const MAX_BYTES = 300 * 1024;

const MEMBER = {
  username: 'astra.vega',
  firstName: 'Astra',
  lastName: 'Vega',
  quote: 'Somewhere, something incredible is waiting to be known.',
  colours: ['#7c3aed', '#1e3a8a'],
};
const FRIENDS = [
  { username: 'orion_hale', firstName: 'Orion', lastName: 'Hale', colours: ['#0ea5e9', '#312e81'] },
  { username: 'luna-park', firstName: 'Luna', lastName: 'Park', colours: ['#db2777', '#3b0764'] },
  { username: 'kai.nebula', firstName: 'Kai', lastName: 'Okafor', colours: ['#14b8a6', '#1e1b4b'] },
];
/** Sky colours and a planet for each photo. */
const PHOTOS = [
  ['#0b1026', '#3b2f80', '#f59e0b'],
  ['#111827', '#0e7490', '#e5e7eb'],
  ['#1e1b4b', '#9d174d', '#fbbf24'],
  ['#020617', '#1d4ed8', '#a78bfa'],
  ['#0f172a', '#047857', '#fca5a5'],
  ['#1c1917', '#b45309', '#93c5fd'],
  ['#172554', '#6d28d9', '#fde68a'],
  ['#042f2e', '#0f766e', '#f9a8d4'],
];

/** A seeded random sequence, so every run draws the same skies. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

function starField(next, width, height, count) {
  return Array.from({ length: count }, () => {
    const r = (next() * 1.6 + 0.4).toFixed(2);
    return `<circle cx="${(next() * width).toFixed(1)}" cy="${(next() * height).toFixed(1)}" r="${r}" fill="#fff" fill-opacity="${(next() * 0.6 + 0.4).toFixed(2)}"/>`;
  }).join('');
}

/** A night sky with stars and one ringed planet, as a JPEG a member might upload. */
function photo([sky, glow, planet], index) {
  const next = random(index + 7);
  const [width, height] = [960, 720];
  const cx = 200 + next() * 560;
  const cy = 180 + next() * 360;
  const radius = 70 + next() * 70;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <radialGradient id="sky" cx="${next()}" cy="${next()}" r="1"><stop offset="0" stop-color="${glow}"/><stop offset="1" stop-color="${sky}"/></radialGradient>
      <linearGradient id="planet" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${planet}"/><stop offset="1" stop-color="${sky}"/></linearGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    ${starField(next, width, height, 140)}
    <circle cx="${cx}" cy="${cy}" r="${radius}" fill="url(#planet)"/>
    <ellipse cx="${cx}" cy="${cy}" rx="${radius * 1.8}" ry="${radius * 0.35}" fill="none" stroke="${planet}" stroke-opacity="0.7" stroke-width="6" transform="rotate(-18 ${cx} ${cy})"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** A nebula avatar in the member's two colours. */
function avatar([from, to]) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <defs><radialGradient id="n" cx="0.35" cy="0.3" r="0.9"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></radialGradient></defs>
    <rect width="256" height="256" fill="url(#n)"/>${starField(random(from.length + to.charCodeAt(1)), 256, 256, 30)}
    <circle cx="128" cy="104" r="44" fill="#fff" fill-opacity="0.85"/>
    <path d="M44 256 C44 192 84 164 128 164 C172 164 212 192 212 256 Z" fill="#fff" fill-opacity="0.85"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function call(method, url, { token, json, form } = {}) {
  const headers = { Origin: origin };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (json) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${origin}${url}`, {
    method,
    headers,
    body: json ? JSON.stringify(json) : form,
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

async function signUp(member) {
  const form = new FormData();
  form.set('username', member.username);
  form.set('email', `${member.username.replace(/[^a-z0-9]/gi, '')}@orbit.example`);
  form.set('password', PASSWORD);
  form.set('firstName', member.firstName);
  form.set('lastName', member.lastName);
  form.set('birthday', '1994-03-14');
  form.set('profilePic', new Blob([await avatar(member.colours)], { type: 'image/png' }), 'me.png');
  await call('POST', '/api/auth/signup', { form });
  const { token, user } = await call('POST', '/api/auth/login', {
    json: { identifier: member.username, password: PASSWORD },
  });
  return { token, id: String(user.id ?? user._id) };
}

async function seed() {
  const me = await signUp(MEMBER);
  await call('PATCH', '/api/auth/profile', {
    token: me.token,
    json: { favoriteQuote: MEMBER.quote },
  });
  for (const friend of FRIENDS) {
    const them = await signUp(friend);
    await call('POST', '/api/users/friends/request', {
      token: them.token,
      json: { toUserId: me.id },
    });
    await call('POST', '/api/users/friends/accept', {
      token: me.token,
      json: { fromUserId: them.id },
    });
  }
  for (const [index, colours] of PHOTOS.entries()) {
    const form = new FormData();
    const image = new Blob([await photo(colours, index)], { type: 'image/jpeg' });
    form.set('image', image, `sky-${index + 1}.jpg`);
    await call('POST', '/api/gallery', { token: me.token, form });
  }
}

function build() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-screenshots-build-'));
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--outDir', dir, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('The build failed');
  return dir;
}

async function startServer(staticDir, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      STATIC_DIR: staticDir,
      DATA_DIR: dataDir,
      APP_ORIGIN: origin,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return stop;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await stop();
  throw new Error(`No answer on ${origin}/healthz`);
}

/** Signs in through the form and waits until the profile and every thumbnail are painted. */
async function capture(browser, shot) {
  const context = await browser.newContext({
    viewport: { width: shot.width, height: shot.height },
    deviceScaleFactor: 1,
    isMobile: shot.mobile,
    hasTouch: shot.mobile,
    baseURL: origin,
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  await page.goto('/landing');
  await page.getByLabel('Username or email').fill(MEMBER.username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`**/profile/${MEMBER.username}`);
  const grid = page.getByRole('list', { name: 'Photos' });
  await grid.getByRole('img').first().waitFor();
  // The photos are what the sheet should show: their section goes just under the top bar.
  await page.evaluate(() => {
    const section = document.querySelector('.gallery-section');
    const bar = document.querySelector('.top-bar')?.getBoundingClientRect().height ?? 0;
    if (section)
      window.scrollTo(0, section.getBoundingClientRect().top + window.scrollY - bar - 16);
  });
  await page.waitForFunction(() =>
    Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const png = await page.screenshot({ type: 'png' });
  await context.close();
  return png;
}

async function compress(png) {
  const small = await sharp(png)
    .png({ palette: true, quality: 90, colours: 256, compressionLevel: 9, effort: 10 })
    .toBuffer();
  if (small.length > MAX_BYTES) throw new Error(`A screenshot is ${small.length} bytes`);
  return small;
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-screenshots-'));
  const staticDir = process.env.STATIC_DIR ? path.resolve(process.env.STATIC_DIR) : build();
  const stop = await startServer(staticDir, path.join(work, 'data'));
  let browser;
  try {
    await seed();
    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    fs.mkdirSync(outDir, { recursive: true });
    for (const shot of SHOTS) {
      const file = path.join(outDir, shot.file);
      fs.writeFileSync(file, await compress(await capture(browser, shot)));
      const { width, height } = await sharp(file).metadata();
      console.log(
        `${path.relative(root, file)}: ${width}x${height}, ${fs.statSync(file).size} bytes`,
      );
    }
  } finally {
    await browser?.close();
    await stop();
    fs.rmSync(work, { recursive: true, force: true });
    if (!process.env.STATIC_DIR) fs.rmSync(staticDir, { recursive: true, force: true });
  }
}

await main();
