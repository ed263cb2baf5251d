import { type Page, type Request, expect } from '@playwright/test';
import { type Api, apiAs, test, uploadPhotos, watchCspViolations } from './pwa-helpers.ts';
import { logIn } from './helpers.ts';

/**
 * What the first paint depends on (docs/architecture.md "Code splitting and first paint"): no
 * stylesheet blocks it, the profile's avatar is found and fetched first, and the code of what a
 * profile does not show yet loads only when it is opened.
 */

/**
 * Every console message of a page that is an error or a warning; but for the worker's registration
 * where the test blocks the worker (the configuration's default).
 */
function watchConsole(page: Page, workerBlocked: boolean): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    if (workerBlocked && /Service worker registration/i.test(message.text())) return;
    messages.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
  return messages;
}

/** The paths of the requests the page makes from now on. */
function watchRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request: Request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/**
 * What came between a first screen and the app's page: any `Loading…` a route's fallback showed,
 * and any layout shift.
 */
async function watchFallbacks(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { fallbacks: string[] }).fallbacks = seen;
    new MutationObserver(() => {
      if (document.getElementById('root')?.textContent?.includes('Loading…')) seen.push('Loading…');
    }).observe(document, { childList: true, subtree: true, characterData: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        seen.push(`layout shift ${(entry as unknown as { value: number }).value}`);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { fallbacks: string[] }).fallbacks);
}

/** The image preload hints inserted into the head, as they were when inserted. */
async function recordPreloads(page: Page) {
  await page.addInitScript(() => {
    const seen: { href: string; fetchPriority: string }[] = [];
    (window as unknown as { imagePreloads: typeof seen }).imagePreloads = seen;
    new MutationObserver((records) => {
      for (const record of records)
        record.addedNodes.forEach((node) => {
          if (node instanceof HTMLLinkElement && node.rel === 'preload' && node.as === 'image')
            seen.push({ href: node.href, fetchPriority: node.fetchPriority });
        });
    }).observe(document, { childList: true, subtree: true });
  });
  return () =>
    page.evaluate(
      () =>
        (window as unknown as { imagePreloads: { href: string; fetchPriority: string }[] })
          .imagePreloads,
    );
}

const lazyChunk = (paths: readonly string[], name: string) =>
  paths.filter((path) => new RegExp(`^/assets/${name}-[^/]+\\.js$`).test(path));

test.describe('first paint, signed out', () => {
  // As Lighthouse sees the page: with its service worker.
  test.use({ serviceWorkers: 'allow' });

  test('a signed-out visitor on /landing: no console message, /me answers null, no token bridge, no blocking stylesheet', async ({
    page,
    request,
  }) => {
    const messages = watchConsole(page, false);
    const paths = watchRequests(page);
    const violations = await watchCspViolations(page);
    const me = page.waitForResponse((response) => response.url().endsWith('/api/auth/me'));
    await page.goto('/landing');
    const answer = await me;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toEqual({ user: null });
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    // The landing page is styled before any stylesheet arrives: its styles are in the document.
    const html = await (await request.get('/landing', { headers: { Accept: 'text/html' } })).text();
    // The one stylesheet link left is the disabled print copy of the inlined sheet: it blocks
    // nothing and is never fetched.
    const sheets = html.match(/<link[^>]+rel="stylesheet"[^>]*>/g) ?? [];
    expect(sheets).toHaveLength(1);
    expect(sheets[0]).toContain('media="print" disabled');
    expect(html).toMatch(/<style>[^<]+<\/style>/);
    const policy =
      (await request.get('/landing', { headers: { Accept: 'text/html' } })).headers()[
        'content-security-policy'
      ] ?? '';
    const styleSrc = policy.split(';').find((directive) => directive.startsWith('style-src')) ?? '';
    expect(styleSrc).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
    expect(styleSrc).not.toContain("'unsafe-inline'");
    // What Lighthouse reads as best practices: nothing logged, no failing call.
    await page.waitForLoadState('load');
    expect(paths).not.toContain('/api/auth/token-bridge');
    expect(paths.filter((path) => path.endsWith('.css'))).toEqual([]);
    expect(await violations()).toEqual([]);
    expect(messages).toEqual([]);
  });
});

test.describe('the landing page’s first screen', () => {
  test('is in the document: with no script at all the login form shows, in the browser’s theme, and the app takes it over without a second copy', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies([{ name: 'orbit-theme', value: 'dark', url: baseURL ?? '' }]);
    const still = await context.newPage();
    await still.goto('/landing');
    await expect(still.getByRole('heading', { name: 'Orbit', level: 1 })).toBeVisible();
    await expect(still.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(still.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(still.locator('html')).toHaveAttribute('data-theme', 'dark');
    await context.close();
  });

  test('takes no input before the app runs, and the app renders over it once, with a working form', async ({
    browser,
    page,
    member,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const still = await context.newPage();
    await still.goto('/landing');
    await expect(still.getByLabel('Username or email')).not.toBeEditable();
    await expect(still.getByLabel('Remember me')).toBeDisabled();
    await expect(still.locator('button[type="submit"]')).toHaveCount(0);
    await context.close();

    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile|\/spacehub/);
  });

  test('of sign-up too: with no script its form shows, and it takes no input before the app runs', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const still = await context.newPage();
    await still.goto('/signup');
    await expect(still.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(still.getByRole('button', { name: 'Create Account' })).toBeVisible();
    await expect(still.getByLabel('Username', { exact: true })).not.toBeEditable();
    await expect(still.locator('button[type="submit"]')).toHaveCount(0);
    await context.close();
  });

  for (const [path, field] of [
    ['/landing', 'Username or email'],
    ['/signup', 'Username'],
  ] as const)
    test(`waits on no download: ${path} asks for the app’s code only after the first paint`, async ({
      page,
    }) => {
      const fallbacks = await watchFallbacks(page);
      await page.goto(path);
      await expect(page.getByLabel(field, { exact: true })).toBeEditable();
      const { painted, chunks } = await page.evaluate(() => ({
        painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        chunks: performance
          .getEntriesByType('resource')
          .filter((entry) => /\/assets\/(?!first-screen-)[^/]+\.js$/.test(entry.name))
          .map((entry) => entry.startTime),
      }));
      expect(chunks.length).toBeGreaterThan(0);
      expect(Math.min(...chunks)).toBeGreaterThanOrEqual(painted);
      // The app rendered over the first screen with its route's code here: no `Loading…` between.
      expect(await fallbacks()).toEqual([]);
    });

  test('keeps a tap made before the app runs: Login pressed on the first screen is pressed on the app’s', async ({
    page,
  }) => {
    // The app's code is held back until the first screen's Login has been pressed.
    let release = () => {};
    const pressed = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await pressed;
      await route.continue();
    });
    await page.goto('/landing', { waitUntil: 'commit' });
    const login = page.getByRole('button', { name: 'Login' });
    await login.click();
    await expect(page.getByLabel('Username or email')).not.toBeEditable();
    release();
    await expect(page.getByRole('alert')).toHaveText('Username/email and password are required.');
  });

  test('is replaced by the app, not doubled', async ({ page }) => {
    await page.goto('/landing');
    await page.waitForLoadState('load');
    await expect(page.getByLabel('Username or email')).toBeEditable();
    await expect(page.locator('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Log in' })).toHaveCount(1);
  });
});

test.describe('first paint, signed in', () => {
  test('the own profile: the avatar is preloaded at high priority and the viewer, manager and settings code loads only when opened', async ({
    browser,
    member,
    baseURL,
    playwright,
  }) => {
    const api: Api = await apiAs(playwright, baseURL ?? '', member);
    await uploadPhotos(api, 2);
    const context = await browser.newContext();
    const page = await context.newPage();
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);

    const messages = watchConsole(page, true);
    const preloads = await recordPreloads(page);
    const paths = watchRequests(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const priorities = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (event) => {
      priorities.set(new URL(event.request.url).pathname, event.request.initialPriority);
    });

    await page.goto(`/profile/${member.username}`);
    const avatar = page.locator('.profile-header img.avatar');
    await expect(avatar).toHaveJSProperty('complete', true);
    await expect(avatar).toHaveAttribute('fetchpriority', 'high');
    await expect(avatar).toHaveAttribute('width', '128');
    await expect(avatar).toHaveAttribute('height', '128');
    const src = await avatar.evaluate((image: HTMLImageElement) => image.currentSrc);
    expect(new URL(src).pathname).toMatch(/^\/uploads\/avatars\//);
    // The hint came before the header: in the document the server answered.
    expect(await preloads()).toContainEqual({ href: src, fetchPriority: 'high' });
    expect(priorities.get(new URL(src).pathname)).toMatch(/^(High|VeryHigh)$/);

    await expect(page.getByRole('list', { name: 'Photos' }).getByRole('listitem')).toHaveCount(2);
    expect(lazyChunk(paths, 'GalleryViewer')).toEqual([]);
    expect(lazyChunk(paths, 'GalleryManager')).toEqual([]);
    expect(lazyChunk(paths, 'SettingsPage')).toEqual([]);

    await page.getByRole('button', { name: 'View All' }).click();
    const manager = page.getByRole('dialog', { name: `Photos of @${member.username}` });
    await expect(manager).toBeVisible();
    expect(lazyChunk(paths, 'GalleryManager')).toHaveLength(1);
    // The manager's chunk did not load the inlined sheet again after the route sheets.
    expect(
      await page.evaluate(
        () => document.querySelectorAll('link[rel="stylesheet"][href^="/assets/index-"]').length,
      ),
    ).toBe(1);
    await page.keyboard.press('Escape');
    await expect(manager).toBeHidden();

    await page.getByRole('list', { name: 'Photos' }).locator('.photo-open').first().click();
    const viewer = page.getByRole('dialog', { name: 'Image viewer' });
    await expect(viewer).toBeVisible();
    expect(lazyChunk(paths, 'GalleryViewer')).toHaveLength(1);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    expect(lazyChunk(paths, 'SettingsPage')).toEqual([]);

    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    expect(lazyChunk(paths, 'SettingsPage')).toHaveLength(1);
    expect(messages).toEqual([]);
    await context.close();
  });

  test("another member's profile, opened directly: asked for once, its avatar preloaded at high priority", async ({
    memberPage: page,
    otherMember,
  }) => {
    const preloads = await recordPreloads(page);
    const paths = watchRequests(page);
    await page.goto(`/profile/${otherMember.username}`);
    const avatar = page.locator('.profile-header img.avatar');
    await expect(avatar).toHaveJSProperty('complete', true);
    await expect(avatar).toHaveAttribute('fetchpriority', 'high');
    const src = await avatar.evaluate((image: HTMLImageElement) => image.currentSrc);
    expect(await preloads()).toContainEqual({ href: src, fetchPriority: 'high' });
    // The request started before the page's code arrived is the one the page used.
    expect(
      paths.filter((path) => path === `/api/users/profile/${otherMember.username}`),
    ).toHaveLength(1);
  });
});

test.describe('a profile’s document', () => {
  const BOOT = /<script type="application\/json" id="orbit-me">/;

  test('signed in: the avatar is on its way before any script runs, and the app asks no /me at start', async ({
    browser,
    memberPage,
    member,
  }) => {
    // No script at all: only the document can have asked for the avatar.
    const context = await browser.newContext({ javaScriptEnabled: false });
    await context.addCookies(await memberPage.context().cookies());
    const page = await context.newPage();
    const avatar = page.waitForRequest((request) => request.url().includes('/uploads/avatars/'));
    const response = await page.goto(`/profile/${member.username}`);
    expect(await response?.text()).toMatch(BOOT);
    expect((await avatar).resourceType()).toBe('image');
    await context.close();

    const paths = watchRequests(memberPage);
    await memberPage.goto(`/profile/${member.username}`);
    await expect(memberPage.getByRole('heading', { name: `@${member.username}` })).toBeVisible();
    await expect(memberPage.locator('.profile-header img.avatar')).toHaveJSProperty(
      'complete',
      true,
    );
    // Read once: the element is gone from the page once the app has it, and the app asked no /me.
    await expect(memberPage.locator('#orbit-me')).toHaveCount(0);
    expect(paths).not.toContain('/api/auth/me');
  });

  test('signed in, one’s own: its first screen shows the avatar and the name with no script, and the app takes it over without moving them', async ({
    browser,
    memberPageWith,
  }) => {
    const memberPage = await memberPageWith({ firstName: 'Ada', lastName: "O'Hara" });
    await memberPage.goto('/profile');
    await expect(memberPage).toHaveURL(/\/profile\/[^/]+$/);
    const path = new URL(memberPage.url()).pathname;
    const username = decodeURIComponent(path.split('/').pop() ?? '');
    const cookies = await memberPage.context().cookies();
    const parts = (page: Page) => {
      const header = page.locator('.profile-header');
      return {
        topBar: page.locator('.top-bar'),
        header,
        avatar: header.locator('img.avatar'),
        username: header.getByRole('heading', { name: `@${username}` }),
        name: header.getByText("Ada O'Hara", { exact: true }),
      };
    };
    const boxes = async (page: Page) => {
      const found: Record<string, unknown> = {};
      for (const [name, part] of Object.entries(parts(page)))
        found[name] = await part.boundingBox();
      return found;
    };

    const still = await browser.newContext({ javaScriptEnabled: false });
    await still.addCookies(cookies);
    const page = await still.newPage();
    await page.goto(path);
    const painted = parts(page);
    await expect(painted.username).toBeVisible();
    await expect(painted.name).toBeVisible();
    await expect(painted.avatar).toHaveJSProperty('complete', true);
    expect(
      await painted.avatar.evaluate((image: HTMLImageElement) => image.naturalWidth),
    ).toBeGreaterThan(0);
    await expect(page.getByRole('link', { name: `Profile of ${username}` })).toBeVisible();
    const before = await boxes(page);
    await still.close();

    const live = await browser.newContext();
    await live.addCookies(cookies);
    const app = await live.newPage();
    await app.addInitScript(() => {
      const shifts: number[] = [];
      const seen = { header: false, gone: 0 };
      Object.assign(window, { shifts, seen });
      // Counts the times the header left the page once shown (a loading fallback in its place).
      new MutationObserver(() => {
        if (document.querySelector('.profile-header')) seen.header = true;
        else if (seen.header) seen.gone += 1;
      }).observe(document, { childList: true, subtree: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          shifts.push((entry as unknown as { value: number }).value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await app.goto(path);
    // The app has rendered over the first screen: its search takes typing.
    await expect(app.getByRole('combobox', { name: 'Search members' })).toBeEditable();
    await expect(parts(app).avatar).toHaveJSProperty('complete', true);
    await expect(app.locator('.profile-header')).toHaveCount(1);
    expect(await boxes(app)).toEqual(before);
    // Nothing moved on the way: no fallback came between the first screen and the page.
    await expect(app.getByText('No friends yet.')).toBeVisible();
    expect(await app.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual(
      [],
    );
    expect(
      await app.evaluate(() => (window as unknown as { seen: { gone: number } }).seen.gone),
    ).toBe(0);
    await live.close();
  });

  test('signed out, or of a member blocked either way: nothing of any member in it', async ({
    playwright,
    baseURL,
    memberApi,
    otherMemberApi,
  }) => {
    const html = { headers: { Accept: 'text/html' } };
    const visitor = await playwright.request.newContext({ baseURL: baseURL ?? '' });
    const signedOut = await (await visitor.get(`/profile/${memberApi.username}`, html)).text();
    await visitor.dispose();
    expect(signedOut).not.toMatch(BOOT);
    expect(signedOut).not.toContain(memberApi.username);

    const blocked = await otherMemberApi.request.post('/api/users/blocks', {
      data: { userId: memberApi.id },
    });
    expect(blocked.ok()).toBe(true);
    for (const [viewer, owner] of [
      [memberApi, otherMemberApi],
      [otherMemberApi, memberApi],
    ] as const) {
      const document = await (await viewer.request.get(`/profile/${owner.username}`, html)).text();
      expect(document).not.toMatch(BOOT);
      expect(document).not.toContain(viewer.username);
      expect(document).not.toContain(owner.username);
      expect(document).not.toContain('/uploads/avatars/');
    }
  });
});
