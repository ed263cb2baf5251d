/**
 * Orbit as deployed by docs/deploy.md "Deploy": members reach two nodes through nginx over TLS, with no
 * APP_ORIGIN entry for the site. Member A is always on node 1 and member B on node 2.
 */
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type Page,
  type WebSocket,
  expect,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import sharp from 'sharp';
import { S3Store } from '../../server/src/media/s3.ts';
import { type Member, createMember, logIn } from '../helpers.ts';
import { clusterInfo } from './cluster.ts';

const cluster = clusterInfo();
const [NODE_1, NODE_2] = cluster.pinned;

/** An API client for one node, through nginx (the certificate is the test's own). */
function api(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, ignoreHTTPSErrors: true });
}

async function memberOn(baseURL: string): Promise<Member> {
  const request = await api(baseURL);
  try {
    return await createMember(request, baseURL);
  } finally {
    await request.dispose();
  }
}

/** A signed-in tab on one node, with every socket.io websocket it opens recorded. */
async function signedIn(browser: Browser, baseURL: string, member: Member) {
  const context = await browser.newContext({ baseURL, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const sockets: WebSocket[] = [];
  page.on('websocket', (socket) => sockets.push(socket));
  await logIn(page, member);
  await expect(page).toHaveURL(/\/profile\//);
  return { page, sockets };
}

/** Alice signed in on node 1 and Bob on node 2, each in a browser context of their own. */
async function oneOnEachNode(browser: Browser) {
  const alice = await memberOn(NODE_1);
  const bob = await memberOn(NODE_2);
  return {
    alice,
    bob,
    a: await signedIn(browser, NODE_1, alice),
    b: await signedIn(browser, NODE_2, bob),
  };
}

/** The login attempt nginx passes on, sent from a loopback address of the test's choosing. */
/**
 * A failed login from `localAddress`. Each names an account of its own, so the per-account backoff
 * (docs/decisions.md "Passwords and abuse") stays out of the way of the address budget.
 */
function loginFrom(
  baseURL: string,
  localAddress: string,
  identifier: string,
  forwardedFor?: string,
): Promise<number> {
  const url = new URL('/api/auth/login', baseURL);
  const body = JSON.stringify({ identifier, password: 'Wrong#Pass1' });
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: 'POST',
        localAddress,
        rejectUnauthorized: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          origin: url.origin,
          ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}

test('a friend request made on node 1 reaches a member on node 2 live, over wss://', async ({
  browser,
}) => {
  const { alice, bob, a, b } = await oneOnEachNode(browser);
  await b.page.goto(`/profile/${alice.username}`);
  await expect(b.page.getByRole('button', { name: 'Add', exact: true })).toBeVisible();

  await a.page.goto(`/profile/${bob.username}`);
  await a.page.getByRole('button', { name: 'Add', exact: true }).click();

  await expect(b.page.getByRole('button', { name: 'Accept' })).toBeVisible();
  // The handshake went through nginx over TLS to the page's own origin, which APP_ORIGIN leaves out.
  const open = b.sockets.filter((socket) => !socket.isClosed());
  expect(open.map((socket) => new URL(socket.url()).origin)).toContain(
    new URL(NODE_2).origin.replace('https:', 'wss:'),
  );
  await a.page.context().close();
  await b.page.context().close();
});

test('a photo uploaded through node 1 appears, live and loaded, for a member on node 2', async ({
  browser,
}) => {
  const { alice, a, b } = await oneOnEachNode(browser);
  await b.page.goto(`/profile/${alice.username}`);
  await expect(b.page.getByText('No images yet. Upload to get started.')).toBeHidden();
  const grid = (page: Page) => page.getByRole('list', { name: 'Photos' });

  const photo = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#29335c' },
  })
    .jpeg()
    .toBuffer();
  const chooser = a.page.waitForEvent('filechooser');
  await a.page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles({ name: 'nebula.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(grid(a.page).locator('.photo-open')).toHaveCount(1, { timeout: 15_000 });

  const thumbnail = grid(b.page).locator('.photo-open img');
  await expect(thumbnail).toHaveCount(1);
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  const src = await thumbnail.getAttribute('src');
  expect(src).toMatch(/\/uploads\/gallery\/[0-9a-f]+-thumb\.webp/);
  // The picture lives in the bucket, not on either node's disk, and node 2 serves it.
  const key = new URL(src ?? '', NODE_2).pathname.replace(/^\/uploads\//, '');
  const bucket = new S3Store(cluster.bucket);
  const stored = await bucket.stat(key);
  bucket.close();
  expect(stored?.size).toBeGreaterThan(0);
  expect(fs.existsSync(path.join(cluster.dataDir, 'uploads', key))).toBe(false);
  const direct = await api(cluster.nodes[1]?.url ?? '');
  const response = await direct.get(`/uploads/${key}`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/webp');
  expect(response.headers().etag).toBe(stored?.etag);
  await direct.dispose();
  await a.page.context().close();
  await b.page.context().close();
});

test('pages and API answers reached over https carry HSTS once, from Orbit', async () => {
  const node = await api(NODE_1);
  for (const path of ['/', '/api/auth/me', '/healthz']) {
    const response = await node.get(path);
    const hsts = response
      .headersArray()
      .filter(({ name }) => /^strict-transport-security$/i.test(name));
    expect(
      hsts.map(({ value }) => value),
      path,
    ).toEqual(['max-age=31536000; includeSubDomains']);
  }
  await node.dispose();
});

test('a session logged out on node 1 is refused by node 2 within a second', async () => {
  const carol = await memberOn(NODE_1);
  const one = await api(NODE_1);
  const two = await api(NODE_2);
  const login = await one.post('/api/auth/login', {
    headers: { Origin: NODE_1 },
    data: { identifier: carol.username, password: carol.password },
  });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const asCarol = { Authorization: `Bearer ${token}` };
  expect((await two.get('/api/auth/me', { headers: asCarol })).status()).toBe(200);

  const loggedOut = Date.now();
  expect((await one.post('/api/auth/logout', { headers: asCarol })).status()).toBeLessThan(300);
  let refusedAfter = Number.POSITIVE_INFINITY;
  while (Date.now() - loggedOut < 3_000) {
    const me = await two.get('/api/auth/me', { headers: asCarol });
    const user = me.ok() ? ((await me.json()) as { user: unknown }).user : null;
    if (!user) {
      refusedAfter = Date.now() - loggedOut;
      break;
    }
  }

  expect(refusedAfter).toBeLessThanOrEqual(1_000);
  await one.dispose();
  await two.dispose();
});

test.describe('rate limits through nginx', () => {
  const LIMIT = cluster.authRateLimit;

  test('a client that writes its own X-Forwarded-For still runs out of attempts', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++)
      statuses.push(
        await loginFrom(NODE_1, '127.0.0.2', `nobody-xff-${attempt}`, `198.51.100.${attempt}`),
      );

    expect(statuses.slice(0, LIMIT).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  test('one client has one budget across both nodes', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= LIMIT; attempt++)
      statuses.push(
        await loginFrom(attempt % 2 === 0 ? NODE_1 : NODE_2, '127.0.0.3', `nobody-${attempt}`),
      );

    expect(statuses.slice(0, LIMIT).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
