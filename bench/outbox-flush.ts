/**
 * The offline outbox flushing after a reconnect (docs/decisions.md "The offline outbox"): a real
 * build, the real server and Chromium with the service worker in control. Offline, the member
 * takes 50 actions through the app's calls (20 likes, 20 captions, 10 friend-request accepts, each
 * with its Idempotency-Key, as `api()` sends them) and uploads 10 camera-sized JPEGs of about 3 MB
 * from the profile's Upload button; all wait in the worker's queue. Then the network comes back on
 * a simulated 4 Mbit/s uplink (CDP Network.emulateNetworkConditions on the page and on the worker,
 * which sends the queue: 500,000 bytes/s up, 40 ms latency), and the run measures from `online` to
 * the worker's last outbox message that settles an item. Also measured: the page's JS heap
 * (CDP Performance.getMetrics) and the worker's (Runtime.getHeapUsage) before, while waiting and
 * after; IndexedDB's bytes while waiting (navigator.storage.estimate's usageDetails.indexedDB)
 * and the queue's own request bodies. Every item is checked through the API: each photo, like,
 * caption and friendship exactly once.
 * `npx tsx bench/outbox-flush.ts` (`BENCH_STATIC_DIR=<build>` uses an existing build).
 */
import { type Browser, type CDPSession, type Page, chromium } from 'playwright-core';
import { table, writeReport, writeResult } from './common.ts';
import { noisePhotos, signupBenchMember } from './gallery-fixtures.ts';
import { chromiumLaunchOptions, seedMember, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

const PHOTOS_SEEDED = 20;
const FRIENDS = 10;
const UPLOADS = 10;
const TARGET_BYTES = 3 * 1024 * 1024;
const UPLOAD_BYTES_PER_S = 500_000;
const LATENCY_MS = 40;
const COMMAND = 'npx tsx bench/outbox-flush.ts';

/** What the page code below uses of the browser (the benchmarks compile without the DOM library). */
interface PageGlobals {
  navigator: {
    serviceWorker: {
      controller: object | null;
      addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
    };
    storage: {
      estimate(): Promise<{ usage?: number; usageDetails?: Record<string, number> }>;
    };
  };
  performance: { now(): number; memory?: { usedJSHeapSize: number } };
  outboxLog: { key: string; result: string; error?: string; at: number }[];
  indexedDB: {
    open(name: string): {
      onsuccess: (() => void) | null;
      onerror: (() => void) | null;
      result: {
        transaction(store: string): {
          objectStore(store: string): {
            getAll(): { onsuccess: (() => void) | null; result: unknown[] };
          };
        };
        close(): void;
      };
    };
  };
}

/**
 * The service worker's own DevTools session: the worker sends the queue, so the uplink is
 * throttled there too. Playwright opens no session on a worker, so this attaches through the
 * browser's (Target.sendMessageToTarget).
 */
async function workerSession(browser: Browser, origin: string) {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  const target = targetInfos.find(
    (info) => info.type === 'service_worker' && info.url.startsWith(origin),
  );
  if (!target) throw new Error('No service worker target');
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  });
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: unknown };
    if (message.id === undefined) return;
    waiting.get(message.id)?.(
      message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result,
    );
    waiting.delete(message.id);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      });
    });
  return { send, detach: () => cdp.detach() };
}

type Conditions = {
  offline: boolean;
  latency: number;
  uploadThroughput: number;
  downloadThroughput: number;
};
const OFFLINE: Conditions = {
  offline: true,
  latency: 0,
  uploadThroughput: -1,
  downloadThroughput: -1,
};
const SLOW_UPLINK: Conditions = {
  offline: false,
  latency: LATENCY_MS,
  uploadThroughput: UPLOAD_BYTES_PER_S,
  downloadThroughput: -1,
};

async function pageHeap(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
}

async function workerHeap(worker: Awaited<ReturnType<typeof workerSession>>): Promise<number> {
  await worker.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await worker.send('Runtime.getHeapUsage')) as { usedSize: number };
  return usedSize;
}

/** IndexedDB's bytes by the browser's estimate, and the outbox queue's own request bodies. */
function storedBytes(page: Page) {
  return page.evaluate(async () => {
    const g = globalThis as unknown as PageGlobals;
    const estimate = await g.navigator.storage.estimate();
    const entries = await new Promise<unknown[]>((resolve, reject) => {
      const open = g.indexedDB.open('workbox-background-sync');
      open.onerror = () => reject(new Error('The queue could not be opened'));
      open.onsuccess = () => {
        const request = open.result.transaction('requests').objectStore('requests').getAll();
        request.onsuccess = () => {
          resolve(request.result);
          open.result.close();
        };
      };
    });
    const bodies = entries.reduce<number>((sum, entry) => {
      const body = (entry as { requestData?: { body?: { byteLength: number } } }).requestData?.body;
      return sum + (body?.byteLength ?? 0);
    }, 0);
    return {
      indexedDB: estimate.usageDetails?.indexedDB ?? Number.NaN,
      usage: estimate.usage ?? Number.NaN,
      queued: entries.length,
      bodies,
    };
  });
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const server = await serveAppBuild('orbit-bench-outbox-flush-');
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const stamp = Date.now() % 100000;
  const member = await seedMember(server.origin, `flush${stamp}`, PHOTOS_SEEDED);
  const auth = { Authorization: `Bearer ${member.token}` };
  const friends = await Promise.all(
    Array.from({ length: FRIENDS }, (_, index) =>
      signupBenchMember(server.origin, `fr${stamp}x${index}`),
    ),
  );
  for (const friend of friends) {
    const response = await fetch(`${server.origin}/api/users/friends/request`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${friend.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ toUserId: member.userId }),
    });
    if (!response.ok) throw new Error(`friend request answered ${response.status}`);
  }
  const gallery = async () => {
    const response = await fetch(`${server.origin}/api/gallery?userId=${member.userId}&limit=200`, {
      headers: auth,
    });
    return (
      (await response.json()) as {
        images: { id: string; caption: string; likeCount: number; likes: string[] }[];
      }
    ).images;
  };
  const seeded = await gallery();
  const files = await noisePhotos(UPLOADS, TARGET_BYTES, 4);
  const uploadBytes = files.reduce((sum, file) => sum + file.byteLength, 0);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([sessionCookie(server.origin, member)]);
  await context.addInitScript(() => {
    const g = globalThis as unknown as PageGlobals;
    g.outboxLog = [];
    g.navigator.serviceWorker.addEventListener('message', (event) => {
      const data = event.data as { type?: string; key: string; result: string; error?: string };
      if (data.type === 'outbox') g.outboxLog.push({ ...data, at: g.performance.now() });
    });
  });
  const page = await context.newPage();
  await page.goto(`${server.origin}/profile/${member.username}`);
  await page.waitForFunction(
    () => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null,
    undefined,
    { timeout: 30_000 },
  );
  await page.reload();
  await page.getByRole('button', { name: 'Upload', exact: true }).waitFor({ timeout: 30_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Network.enable');
  const worker = await workerSession(browser, server.origin);
  await worker.send('Network.enable');
  const heapBefore = { page: await pageHeap(cdp), worker: await workerHeap(worker) };
  const storedBefore = await storedBytes(page);

  // Offline: the page knows it, and the worker cannot reach the server.
  await worker.send('Network.emulateNetworkConditions', OFFLINE);
  await cdp.send('Network.emulateNetworkConditions', OFFLINE);

  // 50 actions as the app calls them: likes and captions on the member's photos, then accepts.
  const actions: { method: string; path: string; body: unknown; key: string }[] = [];
  seeded.forEach((image, index) => {
    actions.push({
      method: 'PATCH',
      path: `/api/gallery/${image.id}`,
      body: { likes: true },
      key: `like-${index}`,
    });
    actions.push({
      method: 'PATCH',
      path: `/api/gallery/${image.id}`,
      body: { caption: `Seen from the train ${index}` },
      key: `caption-${index}`,
    });
  });
  friends.forEach((friend, index) =>
    actions.push({
      method: 'POST',
      path: '/api/users/friends/accept',
      body: { fromUserId: friend.userId },
      key: `accept-${index}`,
    }),
  );
  const statuses = await page.evaluate(async (list) => {
    const answers: number[] = [];
    for (const { method, path, body, key } of list) {
      const response = await fetch(path, {
        method,
        credentials: 'include',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify(body),
      });
      answers.push(response.status);
    }
    return answers;
  }, actions);
  if (statuses.some((status) => status !== 202))
    throw new Error(`Not all kept: ${statuses.join(',')}`);

  // 10 uploads from the Upload button, as a member picks them.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (
    await chooser
  ).setFiles(
    files.map((buffer, index) => ({
      name: `train-${index + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer,
    })),
  );
  await page
    .locator('.photo-tile.queued')
    .nth(UPLOADS - 1)
    .waitFor({ timeout: 120_000 });
  const queuedUploads = await page.locator('.photo-tile.queued').count();
  const stored = await storedBytes(page);
  const heapWaiting = { page: await pageHeap(cdp), worker: await workerHeap(worker) };
  if (stored.queued !== actions.length + UPLOADS)
    throw new Error(`${stored.queued} items queued, not ${actions.length + UPLOADS}`);

  // Back online on a slow uplink: the worker's first, so nothing leaves unthrottled.
  await worker.send('Network.emulateNetworkConditions', SLOW_UPLINK);
  const online = await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).performance.now(),
  );
  await cdp.send('Network.emulateNetworkConditions', SLOW_UPLINK);
  const total = actions.length + UPLOADS;
  await page.waitForFunction(
    (count) =>
      (globalThis as unknown as PageGlobals).outboxLog.filter(
        (message) => message.result === 'sent' || message.result === 'refused',
      ).length >= count,
    total,
    { polling: 100, timeout: 600_000 },
  );
  const log = await page.evaluate(() => (globalThis as unknown as PageGlobals).outboxLog);
  const settled = log.filter(
    (message) => message.result === 'sent' || message.result === 'refused',
  );
  const lastAt = Math.max(...settled.map((message) => message.at));
  const actionsDoneAt = Math.max(
    ...settled
      .filter((message) => actions.some((action) => action.key === message.key))
      .map((message) => message.at),
  );
  const flushMs = lastAt - online;
  const refused = settled.filter((message) => message.result === 'refused');
  const retries = log.filter((message) => message.result === 'waiting').length;
  await page.waitForTimeout(1_000);
  const heapAfter = { page: await pageHeap(cdp), worker: await workerHeap(worker) };
  const storedAfter = await storedBytes(page);

  // Every item once, through the API.
  const after = await gallery();
  const fresh = after.filter((image) => !seeded.some((old) => old.id === image.id));
  const likedOnce = seeded.every(
    (image) =>
      after.find((now) => now.id === image.id)?.likes.filter((id) => id === member.userId)
        .length === 1,
  );
  const captioned = seeded.every(
    (image, index) =>
      after.find((now) => now.id === image.id)?.caption === `Seen from the train ${index}`,
  );
  // A friendship is one state: each friend is a friend now (an accept sent twice would be refused).
  const statuses2 = await Promise.all(
    friends.map(async (friend) =>
      JSON.stringify(
        await (
          await fetch(`${server.origin}/api/users/friends/status?userId=${friend.userId}`, {
            headers: auth,
          })
        ).json(),
      ),
    ),
  );
  const friendsOnce = statuses2.every((status) => status.includes('"friends"'));
  const checks = {
    uploads: fresh.length === UPLOADS,
    likes: likedOnce,
    captions: captioned,
    friends: friendsOnce,
    nothingRefused: refused.length === 0,
    eachKeyOnce: new Set(settled.map((message) => message.key)).size === total,
  };
  const floorMs = (uploadBytes / UPLOAD_BYTES_PER_S) * 1000;

  const result = {
    command: COMMAND,
    actions: actions.length,
    uploads: UPLOADS,
    queuedUploadTiles: queuedUploads,
    uploadBytes,
    uploadBytesPerSecond: UPLOAD_BYTES_PER_S,
    latencyMs: LATENCY_MS,
    uplinkFloorMs: floorMs,
    flushMs,
    actionsSettledMs: actionsDoneAt - online,
    retries,
    heapBefore,
    heapWaiting,
    heapAfter,
    storedBefore,
    storedWaiting: stored,
    storedAfter,
    checks,
  };
  console.log(`Written to ${writeResult('outbox-flush', result)}`);
  const rows = table([
    ['', 'value'],
    ['from `online` to the last item settled', seconds(flushMs)],
    ['of which the 50 actions (sent first, in order)', seconds(actionsDoneAt - online)],
    [`the uplink alone for ${mb(uploadBytes)}`, seconds(floorMs)],
    ['items put back for a later try (`waiting`)', String(retries)],
    [
      'page JS heap: before / waiting / after',
      `${mb(heapBefore.page)} / ${mb(heapWaiting.page)} / ${mb(heapAfter.page)}`,
    ],
    [
      'worker JS heap: before / waiting / after',
      `${mb(heapBefore.worker)} / ${mb(heapWaiting.worker)} / ${mb(heapAfter.worker)}`,
    ],
    [
      'IndexedDB (estimate): before / waiting / after',
      `${mb(storedBefore.indexedDB)} / ${mb(stored.indexedDB)} / ${mb(storedAfter.indexedDB)}`,
    ],
    ['queue while waiting: items, request bodies', `${stored.queued}, ${mb(stored.bodies)}`],
    ['origin usage (estimate) while waiting', mb(stored.usage)],
  ]);
  const checkRows = table([
    ['checked through the API', 'ok'],
    ...Object.entries(checks).map(([name, ok]) => [name, ok ? 'yes' : 'NO']),
  ]);
  console.log(`\n${rows}\n\n${checkRows}`);
  const report = `# The offline outbox flushing after a reconnect

\`${COMMAND}\` — ${new Date().toISOString().slice(0, 10)}, a production build, the real server
(SQLite) and headless Chromium with the service worker in control
(docs/decisions.md "The offline outbox").

Offline, one member takes ${actions.length} actions through the app's calls (20 likes, 20
captions, 10 friend-request accepts, each with its Idempotency-Key) and picks ${UPLOADS} JPEGs
from the profile's Upload button (${mb(uploadBytes)} in all, about 3 MB each): every one answers
\`202\` and waits in the worker's queue, the uploads as \`Waiting to send\` tiles. Then the network
comes back as a 4 Mbit/s uplink (CDP \`Network.emulateNetworkConditions\` on the page and on the
worker that sends the queue: upload ${UPLOAD_BYTES_PER_S.toLocaleString('en')} bytes/s,
${LATENCY_MS} ms latency), and the time runs from \`online\` to the worker's last outbox message
that settles an item. Heaps after a forced garbage collection (page: \`Performance.getMetrics\`
JSHeapUsedSize; worker: \`Runtime.getHeapUsage\`).

${rows}

${checkRows}

The queue is sent one item at a time, in the order taken, so the flush is the uplink's time for
the photos plus one round trip and the server's work per item; the actions, taken first, are sent
first. The page holds the waiting uploads' bodies while it lists them (its outbox list reads the
queue's entries), which is what its heap shows while waiting.
`;
  console.log(`Written to ${writeReport('outbox-flush', report)}`);
  await worker.detach();
  await context.close();
  if (Object.values(checks).some((ok) => !ok)) process.exitCode = 1;
} finally {
  await browser.close();
  await server.stop();
}
