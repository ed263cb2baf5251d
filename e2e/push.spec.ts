import {
  type BrowserContext,
  type CDPSession,
  type Page,
  type Worker,
  expect,
} from '@playwright/test';
import type { Notification as StoredNotification } from '../src/contracts/notifications.ts';
import type { PushPayload } from '../src/contracts/push.ts';
import { test as base } from './helpers.ts';
import { apiAs, controlledPage, expectControlled, sendFriendRequest } from './pwa-helpers.ts';

/**
 * Chromium here cannot reach a real push service, so the page's PushManager answers with a
 * subscription it makes itself: a real P-256 key and auth secret, as a push service would give. It
 * is kept in sessionStorage so that, like a real device's, it survives a reload.
 */
interface StubbedSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  applicationServerKey: string;
}
interface PushStub {
  subscribeCalls: { userVisibleOnly: boolean; applicationServerKey: string }[];
  current: () => StubbedSubscription | null;
}

declare global {
  interface Window {
    orbitPushStub?: PushStub;
  }
}

function stubPushManager() {
  const STORED = 'orbit-e2e-push-subscription';
  const base64url = (buffer: ArrayBuffer) =>
    btoa(String.fromCharCode(...new Uint8Array(buffer)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const bytesOf = (text: string) =>
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0))
      .buffer;
  const bufferOf = (key: BufferSource | string | null | undefined): ArrayBuffer | null => {
    if (!key || typeof key === 'string') return null;
    if (key instanceof ArrayBuffer) return key.slice(0);
    return key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength);
  };
  const current = (): StubbedSubscription | null => {
    const text = sessionStorage.getItem(STORED);
    return text ? (JSON.parse(text) as StubbedSubscription) : null;
  };
  const asSubscription = (stored: StubbedSubscription) =>
    ({
      endpoint: stored.endpoint,
      expirationTime: null,
      options: {
        userVisibleOnly: true,
        applicationServerKey: bytesOf(stored.applicationServerKey),
      },
      getKey: (name: PushEncryptionKeyName) =>
        bytesOf(stored.keys[name === 'p256dh' ? 'p256dh' : 'auth']),
      toJSON: () => ({ endpoint: stored.endpoint, expirationTime: null, keys: stored.keys }),
      unsubscribe: () => {
        sessionStorage.removeItem(STORED);
        return Promise.resolve(true);
      },
    }) as unknown as PushSubscription;

  const stub: PushStub = { subscribeCalls: [], current };
  window.orbitPushStub = stub;

  PushManager.prototype.subscribe = async function subscribe(options) {
    const serverKey = bufferOf(options?.applicationServerKey);
    const applicationServerKey = serverKey ? base64url(serverKey) : '';
    stub.subscribeCalls.push({
      userVisibleOnly: options?.userVisibleOnly === true,
      applicationServerKey,
    });
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
      'deriveBits',
    ]);
    const stored: StubbedSubscription = {
      // A push service the server accepts only because playwright.config.ts allows it
      // (PUSH_ALLOWED_HOSTS); the name never resolves, so nothing is ever sent there.
      endpoint: `https://push.orbit.test/send/${crypto.randomUUID()}`,
      keys: {
        p256dh: base64url(await crypto.subtle.exportKey('raw', pair.publicKey)),
        auth: base64url(crypto.getRandomValues(new Uint8Array(16)).buffer),
      },
      applicationServerKey,
    };
    sessionStorage.setItem(STORED, JSON.stringify(stored));
    return asSubscription(stored);
  };
  PushManager.prototype.getSubscription = function getSubscription() {
    const stored = current();
    return Promise.resolve(stored ? asSubscription(stored) : null);
  };
}

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const dropdown = (page: Page) => page.getByRole('dialog', { name: 'Notifications', exact: true });

/** The page asked the server to forget this device, and the server did (204). */
async function expectDeviceRemoved(removed: ReturnType<typeof pushCall>, endpoint?: string) {
  const deleted = await removed;
  expect(deleted.postDataJSON()).toEqual({ endpoint });
  expect((await deleted.response())?.status()).toBe(204);
}

/**
 * Playwright's `test` with `pushPage`: `member` signed in, in a context that allows notifications
 * and has the push service stubbed, with the service worker in control.
 */
const test = base.extend<{ pushPage: Page }>({
  pushPage: async ({ context, baseURL, member }, use) => {
    await context.grantPermissions(['notifications'], { origin: baseURL ?? '' });
    await context.addInitScript(stubPushManager);
    await use(await controlledPage(context, member));
  },
});

test.use({ serviceWorkers: 'allow' });

/** The DevTools Protocol's id for the app's service worker registration. */
async function registrationId(cdp: CDPSession, baseURL: string): Promise<string> {
  const scopes = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    for (const registration of registrations) {
      if (registration.isDeleted) scopes.delete(registration.scopeURL);
      else scopes.set(registration.scopeURL, registration.registrationId);
    }
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => scopes.has(`${baseURL}/`)).toBe(true);
  return scopes.get(`${baseURL}/`) ?? '';
}

/** The notifications the app's worker is showing, as the page's registration reports them. */
function shownNotifications(page: Page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const shown = await registration.getNotifications();
    return shown.map((notification) => ({
      title: notification.title,
      body: notification.body,
      tag: notification.tag,
      icon: notification.icon,
      badge: notification.badge,
      actions: (notification as Notification & { actions?: { action: string }[] }).actions?.map(
        (action) => action.action,
      ),
    }));
  });
}

async function appWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}

const pushCall = (page: Page, method: 'POST' | 'DELETE') =>
  page.waitForRequest(
    (sent) =>
      new URL(sent.url()).pathname === '/api/push/subscriptions' && sent.method() === method,
  );

async function serverKey(page: Page): Promise<string> {
  const response = await page.request.get('/api/push/vapid-public-key');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { publicKey: string }).publicKey;
}

test('a member turns notifications on from the bell and off again; the server follows', async ({
  pushPage: page,
}) => {
  await bell(page).click();
  const panel = dropdown(page);
  const posted = pushCall(page, 'POST');
  await panel.getByRole('button', { name: 'Turn on notifications' }).click();
  const saved = await posted;
  expect((await saved.response())?.status()).toBe(201);
  await expect(panel.getByRole('button', { name: 'Turn off notifications' })).toBeVisible();
  const stub = await page.evaluate(() => ({
    calls: window.orbitPushStub?.subscribeCalls,
    current: window.orbitPushStub?.current(),
  }));
  expect(stub.calls).toEqual([
    { userVisibleOnly: true, applicationServerKey: await serverKey(page) },
  ]);
  expect(saved.postDataJSON()).toEqual({
    endpoint: stub.current?.endpoint,
    keys: stub.current?.keys,
  });

  // On the next load the device is still on and the server's copy is refreshed (200: known).
  const refreshed = pushCall(page, 'POST');
  await page.reload();
  const again = await refreshed;
  expect(again.postDataJSON()).toEqual(saved.postDataJSON());
  expect((await again.response())?.status()).toBe(200);
  await bell(page).click();
  const off = panel.getByRole('button', { name: 'Turn off notifications' });
  await expect(off).toBeVisible();

  const removed = pushCall(page, 'DELETE');
  await off.click();
  await expectDeviceRemoved(removed, stub.current?.endpoint);
  await expect(panel.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
  expect(await page.evaluate(() => window.orbitPushStub?.current())).toBeNull();
});

test('logging out removes the device from the server and unsubscribes it', async ({
  pushPage: page,
}) => {
  await page.goto('/spacehub?notifications=open');
  // The Notifications shortcut opens the full-screen panel, which offers push too.
  const overlay = page.getByRole('dialog', { name: /^Notifications/ });
  await expect(overlay).toBeVisible();
  await expect(page).toHaveURL(/\/spacehub$/);
  const posted = pushCall(page, 'POST');
  await overlay.getByRole('button', { name: 'Turn on notifications' }).click();
  const endpoint = ((await posted).postDataJSON() as { endpoint: string }).endpoint;
  await expect(overlay.getByRole('button', { name: 'Turn off notifications' })).toBeVisible();
  await overlay.getByRole('button', { name: 'Close notifications' }).click();

  const removed = pushCall(page, 'DELETE');
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expectDeviceRemoved(removed, endpoint);
  await expect(page).toHaveURL(/\/landing|\/$/);
  expect(await page.evaluate(() => window.orbitPushStub?.current())).toBeNull();
});

test('a push shows one notification per friend request, and the worker can answer it', async ({
  pushPage: page,
  context,
  member: bob,
  otherMember: alice,
  playwright,
  baseURL,
}) => {
  const origin = baseURL ?? '';
  const aliceApi = await apiAs(playwright, origin, alice);
  const bobApi = await apiAs(playwright, origin, bob);
  await sendFriendRequest(aliceApi, bobApi);

  // The payload the relay would send, built from bob's stored notification.
  const { notifications, unread } = (await (
    await page.request.get('/api/notifications')
  ).json()) as { notifications: StoredNotification[]; unread: number };
  const stored = notifications.find((item) => item.type === 'friend_request');
  expect(stored?.actor?.username).toBe(alice.username);
  const payload: PushPayload = {
    id: Number(stored?.id),
    kind: 'friend_request',
    requestId: stored?.requestId ?? '',
    actor: {
      id: stored?.actor?.id ?? '',
      username: alice.username,
      profileImage: stored?.actor?.profileImage ?? '',
    },
    url: `/profile/${alice.username}`,
    unread,
    createdAt: stored?.createdAt ?? '',
  };

  const cdp = await context.newCDPSession(page);
  const registration = await registrationId(cdp, origin);
  const deliver = (data: string) =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin: origin,
      registrationId: registration,
      data,
    });

  await deliver(JSON.stringify(payload));
  await expect.poll(() => shownNotifications(page)).toHaveLength(1);
  // Delivered again (at-least-once): the same tag replaces it instead of stacking.
  await deliver(JSON.stringify(payload));
  await deliver(JSON.stringify({ ...payload, unread: unread + 1 }));
  // Then a push Orbit cannot read, which still shows a notification, as push services require.
  // The worker takes pushes in order, so a stacked copy of the request would be there before it.
  await deliver('not json');
  await expect
    .poll(async () => (await shownNotifications(page)).some((item) => item.tag === ''))
    .toBe(true);
  const shown = await shownNotifications(page);
  expect(shown).toHaveLength(2);
  expect(shown.find((item) => item.tag === '')?.title).toBe('Orbit');
  expect(shown.filter((item) => item.tag !== '')).toEqual([
    {
      title: 'Orbit',
      body: `@${alice.username} sent you a friend request`,
      tag: `orbit-friend-${payload.requestId}`,
      icon: new URL(payload.actor.profileImage || '/profilepic.jpg', origin).href,
      badge: `${origin}/icons/badge-72.png`,
      actions: ['accept', 'decline'],
    },
  ]);

  // Accept from the notification: the worker calls the friend API with the session cookie, and
  // the server's origin check lets it through.
  const worker = await appWorker(context);
  const answer = await worker.evaluate(
    async ({ fromUserId, username }) => {
      const response = await fetch('/api/users/friends/accept', {
        method: 'POST',
        credentials: 'include',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ fromUserId, username }),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { fromUserId: payload.actor.id, username: alice.username },
  );
  expect(answer).toEqual({ status: 200, body: { status: 'friends' } });
});

test('a notification click moves an open window to the page without reloading it', async ({
  pushPage: page,
  context,
  member: bob,
}) => {
  await page.goto('/spacehub');
  await expectControlled(page);
  // The app listens once it has started (signed in, top bar shown).
  await expect(bell(page)).toBeVisible();
  await page.evaluate(() => {
    (window as Window & { sameDocument?: boolean }).sameDocument = true;
  });
  const worker = await appWorker(context);
  await worker.evaluate(async (url) => {
    const scope = self as unknown as {
      clients: { matchAll: (o: object) => Promise<{ postMessage: (m: unknown) => void }[]> };
    };
    for (const client of await scope.clients.matchAll({ type: 'window' }))
      client.postMessage({ type: 'navigate', url });
  }, `/profile/${bob.username}`);
  await expect(page).toHaveURL(new RegExp(`/profile/${bob.username}$`));
  expect(
    await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument),
  ).toBe(true);
});
