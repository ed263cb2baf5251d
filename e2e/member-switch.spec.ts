/**
 * One reset (docs/decisions.md "One reset"): a member logs out in a tab and another logs in in the
 * same tab, with no reload in between. Nothing of the first is left in the page's memory, in
 * IndexedDB or in Cache Storage, and the second sees nothing of theirs.
 */
import { type Page, expect } from '@playwright/test';
import { createMember, logInHere, test } from './helpers.ts';
import { createModerator, createOrdinaryMember } from './moderators.ts';
import {
  type Api,
  apiAs,
  bell,
  bellPanel,
  expectControlled,
  loadedThumbnails,
  sendFriendRequest,
  storedData,
  uploadPhotos,
} from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });
// Five members, uploads, a worker install and a heap snapshot.
test.describe.configure({ timeout: 120_000 });

async function imageIds(api: Api): Promise<string[]> {
  const response = await api.request.get(`/api/gallery?userId=${api.id}`);
  const { images } = (await response.json()) as { images: { id: string }[] };
  return images.map((image) => image.id);
}

interface HeapSnapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      edge_fields: string[];
      node_types: [string[]];
      edge_types: [string[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * The strings with a trace in them that the page's JavaScript still holds after a full collection (the stores, React's
 * state, the socket's buffers, every world of the page), taken from a heap snapshot through the
 * DevTools protocol. A string only the engine's own code caches keep (the feedback of a property
 * lookup remembers the last key it saw) is not held by the page, and is left out.
 */
async function heldStrings(page: Page, traces: readonly string[]): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const chunks: string[] = [];
  cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => chunks.push(chunk));
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.detach();
  const heap = JSON.parse(chunks.join('')) as HeapSnapshot;
  const { node_fields, edge_fields, node_types, edge_types } = heap.snapshot.meta;
  const [nodeWidth, edgeWidth] = [node_fields.length, edge_fields.length];
  const [typeAt, nameAt, edgesAt] = ['type', 'name', 'edge_count'].map((field) =>
    node_fields.indexOf(field),
  ) as [number, number, number];
  const [edgeTypeAt, toAt] = ['type', 'to_node'].map((field) => edge_fields.indexOf(field)) as [
    number,
    number,
  ];
  const typeOf = (node: number) => node_types[0][heap.nodes[node * nodeWidth + typeAt] ?? 0];
  const isString = (node: number) => /string/.test(typeOf(node) ?? '');
  const count = heap.nodes.length / nodeWidth;
  const retainers: number[][] = Array.from({ length: count }, () => []);
  for (let node = 0, edge = 0; node < count; node++) {
    const end = edge + (heap.nodes[node * nodeWidth + edgesAt] ?? 0) * edgeWidth;
    for (; edge < end; edge += edgeWidth) {
      if (edge_types[0][heap.edges[edge + edgeTypeAt] ?? 0] === 'weak') continue;
      retainers[(heap.edges[edge + toAt] ?? 0) / nodeWidth]?.push(node);
    }
  }
  const held = (node: number, seen = new Set<number>()): boolean =>
    (retainers[node] ?? []).some((by) => {
      if (seen.has(by) || typeOf(by) === 'code') return false;
      seen.add(by);
      return !isString(by) || held(by, seen);
    });
  const strings: string[] = [];
  for (let node = 0; node < count; node++) {
    if (!isString(node)) continue;
    const text = heap.strings[heap.nodes[node * nodeWidth + nameAt] ?? 0] ?? '';
    if (traces.some((trace) => text.includes(trace)) && held(node)) strings.push(text);
  }
  return strings;
}

/** Opens a route inside the app, as a link would: the page stays the same document. */
async function goInside(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('a member logs out and another logs in in the same tab: nothing of the first is left', async ({
  browser,
  playwright,
  request,
  baseURL,
}) => {
  const base = baseURL ?? '';
  // A moderates, has photos, a friend with a photo, notifications, a pending request and an open
  // report to look at.
  const a = await createModerator(request, base);
  const friend = await createMember(request, base);
  const asker = await createMember(request, base);
  const b = await createOrdinaryMember(request, base);
  const aApi = await apiAs(playwright, base, a);
  const friendApi = await apiAs(playwright, base, friend);
  const askerApi = await apiAs(playwright, base, asker);
  await uploadPhotos(aApi, 2);
  await uploadPhotos(friendApi, 1);
  await sendFriendRequest(friendApi, aApi);
  const accepted = await aApi.request.post('/api/users/friends/accept', {
    data: { fromUserId: friendApi.id },
  });
  expect(accepted.ok()).toBe(true);
  await sendFriendRequest(askerApi, aApi);
  const [aPhotos, friendPhotos] = await Promise.all([imageIds(aApi), imageIds(friendApi)]);
  const liked = await friendApi.request.patch(`/api/gallery/${aPhotos[0] ?? ''}`, {
    data: { likes: true },
  });
  expect(liked.ok()).toBe(true);
  const note = `note-${friendPhotos[0] ?? ''}-${Date.now()}`;
  const reported = await askerApi.request.post('/api/reports', {
    data: { kind: 'image', targetId: friendPhotos[0], reason: 'spam', note },
  });
  expect(reported.status()).toBe(201);
  await Promise.all([aApi, friendApi, askerApi].map((api) => api.request.dispose()));
  // What of A's could be left behind: names, ids, photos, the report.
  const traces = [
    a.username,
    aApi.id,
    friend.username,
    friendApi.id,
    asker.username,
    askerApi.id,
    note,
    ...aPhotos,
    ...friendPhotos,
  ];

  // A's visit: their profile, their friend's, the bell and the open reports, one page all along.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/landing');
  await expectControlled(page);
  await logInHere(page, a);
  await loadedThumbnails(page, 2);
  await page.locator('.profile-friends-list a').first().click();
  await expect(page.getByRole('button', { name: 'Unfriend' })).toBeVisible();
  await loadedThumbnails(page, 1);
  await bell(page).click();
  await expect(bellPanel(page).getByRole('listitem').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page
    .getByRole('navigation', { name: 'Pages' })
    .getByRole('link', { name: 'Reports' })
    .click();
  await expect(
    page.getByRole('list', { name: 'Open reports' }).getByRole('listitem').first(),
  ).toBeVisible();
  expect(await storedData(page)).toContain(aApi.id);

  // A logs out; B logs in on the landing page the logout left, in the same document.
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await logInHere(page, b);
  await expect(page.getByRole('heading', { name: b.username })).toBeVisible();

  // B sees nothing of A's: the bell holds B's own notifications only, and the reports page is
  // closed to B.
  await bell(page).click();
  await expect(bellPanel(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await goInside(page, '/moderation');
  await expect(page.getByText('Only moderators can see reports.')).toBeVisible();
  await goInside(page, `/profile/${b.username}`);
  await expect(page.getByRole('heading', { name: b.username })).toBeVisible();
  const shown = await page.evaluate(() => document.documentElement.outerHTML);
  const stored = await storedData(page);
  const cacheNames = await page.evaluate(() => caches.keys());
  const heap = await heldStrings(page, traces);
  for (const trace of traces) {
    expect(shown, `the page shows ${trace}`).not.toContain(trace);
    expect(stored, `IndexedDB or Cache Storage holds ${trace}`).not.toContain(trace);
    expect(
      heap.filter((text) => text.includes(trace)),
      `the page's memory holds ${trace}`,
    ).toEqual([]);
  }
  expect(cacheNames.every((name) => name.includes('precache'))).toBe(true);
  await context.close();
});
