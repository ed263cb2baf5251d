import fs from 'node:fs';
import { type APIRequestContext, expect, test } from '@playwright/test';
import sharp from 'sharp';
import { createMember, logIn } from './helpers.ts';
import {
  bell,
  bellPanel,
  buildMarked,
  expectControlled,
  startServer,
  tempDir,
  watchCspViolations,
} from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });

/** The port of the update-flow test's own server (one build replaced by another). */
const UPDATE_PORT = Number(process.env.E2E_UPDATE_PORT ?? 5191);

interface ManifestImage {
  src: string;
  sizes?: string;
  type?: string;
  purpose?: string;
}

interface Manifest {
  name?: string;
  short_name?: string;
  description?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  theme_color?: string;
  background_color?: string;
  icons?: ManifestImage[];
  screenshots?: (ManifestImage & { form_factor?: string; label?: string })[];
  shortcuts?: { name: string; url: string; icons?: ManifestImage[] }[];
}

async function readManifest(request: APIRequestContext): Promise<{ href: string; data: Manifest }> {
  const html = await (await request.get('/landing', { headers: { Accept: 'text/html' } })).text();
  const href = /<link rel="manifest" href="([^"]+)"/.exec(html)?.[1];
  expect(href, 'index.html links the manifest').toBeTruthy();
  const response = await request.get(href ?? '');
  expect(response.status()).toBe(200);
  return { href: href ?? '', data: (await response.json()) as Manifest };
}

/** Fetches an image and answers its real dimensions, after checking status and content type. */
async function loadImage(request: APIRequestContext, src: string) {
  const response = await request.get(src);
  expect(response.status(), src).toBe(200);
  expect(response.headers()['content-type'], src).toMatch(/^image\//);
  const { width, height } = await sharp(await response.body()).metadata();
  return `${width}x${height}`;
}

test.describe('the service worker', () => {
  test('installs, claims the page and still controls it after a reload', async ({ page }) => {
    await page.goto('/landing');
    await expectControlled(page);
    const registration = await page.evaluate(async () => {
      const found = await navigator.serviceWorker.getRegistration();
      return { scope: found?.scope, script: found?.active?.scriptURL };
    });
    expect(new URL(registration.scope ?? '').pathname).toBe('/');
    expect(new URL(registration.script ?? '').pathname).toBe('/sw.js');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe('activated');
  });

  test('the worker script is served fresh, never from a long-lived cache', async ({ request }) => {
    const response = await request.get('/sw.js');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/javascript/);
    expect(response.headers()['cache-control']).not.toMatch(/max-age=[1-9]/);
  });
});

test.describe('installing', () => {
  test('Chromium reports no installability errors and a manifest without errors; the menu offers Install Orbit', async ({
    playwright,
    launchOptions,
    request,
    baseURL,
  }) => {
    // A normal profile: Chromium never offers installation from an incognito-like context.
    const profile = tempDir('orbit-e2e-profile-');
    const context = await playwright.chromium.launchPersistentContext(profile, {
      ...launchOptions,
      ...(baseURL ? { baseURL } : {}),
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/landing');
      await expectControlled(page);
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest', {});
      expect(manifest.errors).toEqual([]);
      expect(new URL(manifest.url).pathname).toBe('/manifest.webmanifest');
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);

      // Chromium offers installation (beforeinstallprompt); a member finds it in the menu.
      await logIn(page, await createMember(request, baseURL ?? ''));
      await expect(page).toHaveURL(/\/profile\//);
      await page.getByRole('button', { name: 'Menu' }).click();
      await expect(page.getByRole('button', { name: 'Install Orbit' })).toBeVisible();
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  });

  test('the manifest names Orbit, starts at the own profile standalone and its icons, shortcuts and screenshots load', async ({
    request,
  }) => {
    const { href, data } = await readManifest(request);
    expect(href).toBe('/manifest.webmanifest');
    expect(data).toMatchObject({
      name: 'Orbit',
      short_name: 'Orbit',
      start_url: '/profile',
      scope: '/',
      display: 'standalone',
    });
    expect(data.description).toBeTruthy();
    expect(data.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(data.background_color).toMatch(/^#[0-9a-f]{6}$/i);

    const icons = data.icons ?? [];
    const any = (size: string) =>
      icons.find((icon) => icon.sizes === size && (icon.purpose ?? 'any').includes('any'));
    expect(any('192x192'), 'a 192 px icon').toBeTruthy();
    expect(any('512x512'), 'a 512 px icon').toBeTruthy();
    expect(icons.some((icon) => icon.purpose?.includes('maskable'))).toBe(true);
    for (const icon of icons) {
      expect(icon.type).toBe('image/png');
      expect(await loadImage(request, icon.src)).toBe(icon.sizes);
    }

    const shortcuts = data.shortcuts ?? [];
    expect(shortcuts.map((shortcut) => shortcut.url)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/profile/), expect.stringMatching(/notif/)]),
    );
    for (const icon of shortcuts.flatMap((shortcut) => shortcut.icons ?? []))
      expect(await loadImage(request, icon.src)).toBe(icon.sizes);

    const screenshots = data.screenshots ?? [];
    expect(screenshots.map((shot) => shot.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of screenshots) {
      expect(shot.label).toBeTruthy();
      expect(await loadImage(request, shot.src)).toBe(shot.sizes);
    }
  });

  test('the page links an Apple touch icon and the iOS home-screen tags', async ({
    page,
    request,
  }) => {
    await page.goto('/landing');
    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect(touchIcon).toBeTruthy();
    expect(await loadImage(request, touchIcon ?? '')).toBe('180x180');
    await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute(
      'content',
      'yes',
    );
    await expect(page.locator('meta[name="apple-mobile-web-app-title"]')).toHaveAttribute(
      'content',
      'Orbit',
    );
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', /^#/);
  });
});

test('a strict Content-Security-Policy: no inline script allowed and no violation while a member uses the app', async ({
  page,
  request,
  baseURL,
}) => {
  const response = await request.get('/', { headers: { Accept: 'text/html' } });
  const policy = response.headers()['content-security-policy'] ?? '';
  const scriptSrc = policy
    .split(';')
    .map((directive) => directive.trim())
    .find((directive) => directive.startsWith('script-src'));
  expect(scriptSrc, 'the policy has a script-src').toBeTruthy();
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  expect(policy).toMatch(/worker-src 'self'/);
  expect(policy).toMatch(/manifest-src 'self'/);

  const violations = await watchCspViolations(page);
  const member = await createMember(request, baseURL ?? '');
  await logIn(page, member);
  await expect(page).toHaveURL(/\/profile\//);
  await expectControlled(page);
  await page.reload();
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  await bell(page).click();
  await expect(bellPanel(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('a second build brings `A new version is available`; Reload switches to it once', async ({
  browser,
}) => {
  // Two production builds and a server restart: more than the default 30 s on a busy machine.
  test.setTimeout(120_000);
  const work = tempDir('orbit-e2e-update-');
  const buildA = `${work}/a`;
  const buildB = `${work}/b`;
  const dataDir = `${work}/data`;
  await buildMarked(buildA, 'A');
  await buildMarked(buildB, 'B');

  let server = await startServer({ port: UPDATE_PORT, staticDir: buildA, dataDir });
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    await page.goto('/landing');
    await expect(page.locator('html')).toHaveAttribute('data-build', 'A');
    await expectControlled(page);
    const scriptsOf = () =>
      page.evaluate(() =>
        Array.from(document.scripts, (script) => new URL(script.src).pathname).sort(),
      );
    const scriptsA = await scriptsOf();

    // The new version is deployed: build A's files are gone from the server.
    await server.stop();
    server = await startServer({ port: UPDATE_PORT, staticDir: buildB, dataDir });

    // The page still runs version A: its lazy parts come from its own worker's precache.
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();

    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect(page.getByText('A new version is available')).toBeVisible({ timeout: 15_000 });

    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-build', 'B', { timeout: 15_000 });
    expect(await scriptsOf()).not.toEqual(scriptsA);
    const worker = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return {
        controller: navigator.serviceWorker.controller?.state,
        waiting: Boolean(registration?.waiting),
        controllerIsActive:
          navigator.serviceWorker.controller?.scriptURL === registration?.active?.scriptURL,
      };
    });
    expect(worker).toEqual({ controller: 'activated', waiting: false, controllerIsActive: true });
    await expect(page.getByText('A new version is available')).toBeHidden();
    // One reload, not a loop. The page is marked, then asked to go through its start once more:
    // wait for the worker to be ready and fetch through it. A second reload would have replaced
    // the marked page before that answer came back.
    await page.evaluate(() => Object.assign(window, { orbitAfterUpdate: true }));
    const stillMarked = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      await fetch(location.pathname, { cache: 'no-store' });
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return 'orbitAfterUpdate' in window;
    });
    expect(stillMarked).toBe(true);
    expect(navigations).toBe(1);

    // Version B's lazy parts load from its own worker.
    await page.goto('/signup');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  } finally {
    await context.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
