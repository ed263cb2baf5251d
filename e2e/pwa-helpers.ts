import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, type BrowserContext, type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import { type Member, logIn, test as memberTest } from './helpers.ts';
import { spawnServer } from './serverProcess.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OFFLINE_BANNER = "You're offline — showing saved data";

/** A member's own API session (cookies kept per context), for setting up photos and requests. */
export interface Api {
  request: APIRequestContext;
  id: string;
}

export async function apiAs(
  playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } },
  baseURL: string,
  member: Member,
): Promise<Api> {
  const request = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Origin: baseURL },
  });
  const response = await request.post('/api/auth/login', {
    data: { identifier: member.username, password: member.password },
  });
  expect(response.ok()).toBe(true);
  const { user } = (await response.json()) as { user: { _id?: string; id?: string } };
  return { request, id: String(user.id ?? user._id) };
}

/**
 * helpers' `test` where `memberApi` and `otherMemberApi` are `member` and `otherMember`, each with
 * an API session of their own (closed after the test).
 */
export const test = memberTest.extend<{ memberApi: Member & Api; otherMemberApi: Member & Api }>({
  memberApi: async ({ playwright, baseURL, member }, use) => {
    const api = await apiAs(playwright, baseURL ?? '', member);
    await use({ ...member, ...api });
    await api.request.dispose();
  },
  otherMemberApi: async ({ playwright, baseURL, otherMember }, use) => {
    const api = await apiAs(playwright, baseURL ?? '', otherMember);
    await use({ ...otherMember, ...api });
    await api.request.dispose();
  },
});

const COLOURS = ['#e4572e', '#29335c', '#f3a712', '#669bbc', '#a8c686', '#7b2d26'];

/** Uploads `count` real PNGs of different colours through the gallery API. */
export async function uploadPhotos(api: Api, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const buffer = await sharp({
      create: {
        width: 320,
        height: 240,
        channels: 3,
        background: COLOURS[index % COLOURS.length] ?? '#000',
      },
    })
      .png()
      .toBuffer();
    const response = await api.request.post('/api/gallery', {
      multipart: { image: { name: `photo-${index + 1}.png`, mimeType: 'image/png', buffer } },
    });
    expect(response.status()).toBe(201);
  }
}

export async function sendFriendRequest(from: Api, to: Api): Promise<void> {
  const response = await from.request.post('/api/users/friends/request', {
    data: { toUserId: to.id },
  });
  expect(response.ok()).toBe(true);
}

/** Waits until the service worker is active and controls the page (it claims open clients). */
export async function expectControlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), {
      timeout: 10_000,
    })
    .toBe('activated');
}

/**
 * A new page of `context` with `member` logged in through the form, on the own profile, once the
 * service worker controls it.
 */
export async function controlledPage(context: BrowserContext, member: Member): Promise<Page> {
  const page = await context.newPage();
  await logIn(page, member);
  await expect(page).toHaveURL(`/profile/${member.username}`);
  await expectControlled(page);
  return page;
}

const photoGrid = (page: Page) => page.getByRole('list', { name: 'Photos' });

/**
 * The grid's thumbnails once every one has loaded: their addresses, and whether each decoded into a
 * real picture. Waits until there are `count` and all are complete.
 */
export async function loadedThumbnails(page: Page, count: number) {
  const images = photoGrid(page).locator('.photo-open img');
  await expect(images).toHaveCount(count, { timeout: 10_000 });
  await expect
    .poll(() =>
      images.evaluateAll((all) => all.every((image) => (image as HTMLImageElement).complete)),
    )
    .toBe(true);
  return images.evaluateAll((all) =>
    all.map((element) => {
      const image = element as HTMLImageElement;
      return { src: image.currentSrc || image.src, painted: image.naturalWidth > 0 };
    }),
  );
}

export const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
export const bellPanel = (page: Page) =>
  page.getByRole('dialog', { name: 'Notifications', exact: true });

/**
 * Everything this origin keeps in IndexedDB and outside the precache in Cache Storage, as text,
 * for finding traces of a member. Blobs show only as their keys.
 */
export function storedData(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const settled = <T>(request: IDBRequest<T> | IDBOpenDBRequest) =>
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
      });
    const dump: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const database = await settled<IDBDatabase>(indexedDB.open(name));
      for (const store of Array.from(database.objectStoreNames)) {
        const objects = database.transaction(store, 'readonly').objectStore(store);
        const [keys, values] = await Promise.all([
          settled(objects.getAllKeys()),
          settled(objects.getAll()),
        ]);
        dump.push(`${name}/${store}: ${JSON.stringify(keys)} ${JSON.stringify(values)}`);
      }
      database.close();
    }
    for (const name of await caches.keys()) {
      if (name.includes('precache')) continue;
      const requests = await (await caches.open(name)).keys();
      dump.push(`cache ${name}: ${requests.map((request) => request.url).join(' ')}`);
    }
    return dump.join('\n');
  });
}

/** Content-Security-Policy violations reported in the page, from the first script on. */
export async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      fromConsole.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  return async () => [
    ...fromConsole,
    ...(await page.evaluate(
      () => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [],
    )),
  ];
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A production build of the app into `outDir`, marked with `build` on the root element
 * (`<html data-build>`), so two builds from the same sources differ in every hashed file that
 * depends on the entry, in index.html and so in the worker's precache manifest. A build into the
 * folder of an earlier one replaces it as `npm run build` does, keeping its hashed files.
 */
export async function buildMarked(outDir: string, build: string): Promise<void> {
  const vite = await import('vite');
  await vite.build({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir, sourcemap: false },
    plugins: [
      {
        name: 'orbit-e2e-build-mark',
        transform(code, id) {
          if (!id.replaceAll('\\', '/').endsWith('/src/main.tsx')) return null;
          return `${code}\ndocument.documentElement.dataset.build = ${JSON.stringify(build)};\n`;
        },
      },
    ],
  });
}

export interface Server {
  origin: string;
  stop: () => Promise<void>;
}

/** The real server (`server/src/main.ts`) on `port`, serving the build in `staticDir`. */
export async function startServer(options: {
  port: number;
  staticDir: string;
  dataDir: string;
}): Promise<Server> {
  const origin = `http://localhost:${options.port}`;
  const server = await spawnServer({
    origin,
    env: {
      PORT: String(options.port),
      STATIC_DIR: options.staticDir,
      DATA_DIR: options.dataDir,
      APP_ORIGIN: origin,
      AUTH_RATE_LIMIT: '1000',
      UPLOADS_AT_ONCE: '1000',
      UPLOADS_PER_HOUR: '1000000',
    },
    timeoutMs: 30_000,
  });
  return { origin, stop: () => server.stop() };
}
