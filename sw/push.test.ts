/// <reference lib="webworker" />
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pushPayload } from '../push-relay/test/payloads.ts';
import { workerApiOrigin } from './push-api.ts';
import { BADGE_ICON, NOTIFICATIONS_URL } from './push-notification.ts';
import { registerPush } from './push.ts';

const ORIGIN = 'https://orbit.example';

const request = pushPayload();

interface FakeWindow {
  focused: boolean;
  visibilityState: DocumentVisibilityState;
  focus: ReturnType<typeof vi.fn>;
  postMessage: ReturnType<typeof vi.fn>;
}

function fakeWindow(state: Partial<Pick<FakeWindow, 'focused' | 'visibilityState'>> = {}) {
  const client: FakeWindow = {
    focused: state.focused ?? false,
    visibilityState: state.visibilityState ?? 'hidden',
    focus: vi.fn(() => Promise.resolve(client)),
    postMessage: vi.fn(),
  };
  return client;
}

/** A service worker scope with the browser's parts replaced at their edges. */
function fakeWorker(options: { appBadge?: boolean } = {}) {
  const listeners = new Map<string, (event: unknown) => void>();
  const windows: FakeWindow[] = [];
  const navigator: Record<string, unknown> = {};
  if (options.appBadge ?? true) navigator.setAppBadge = vi.fn(() => Promise.resolve());
  const sw = {
    location: { origin: ORIGIN },
    navigator,
    registration: { showNotification: vi.fn(() => Promise.resolve()) },
    clients: {
      matchAll: vi.fn(() => Promise.resolve(windows)),
      openWindow: vi.fn(() => Promise.resolve(null)),
    },
    fetch: vi.fn<typeof fetch>(() => Promise.resolve(new Response('{"status":"friends"}'))),
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      listeners.set(type, listener);
    },
  };
  registerPush(sw as unknown as ServiceWorkerGlobalScope);

  /** Dispatches like the browser: the handler must hand its work to waitUntil. */
  async function dispatch(type: string, fields: object) {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...fields, waitUntil: (work: Promise<unknown>) => pending.push(work) });
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
  }
  const push = (text: string | null) =>
    dispatch('push', { data: text === null ? null : { text: () => text } });
  const click = (data: unknown, action = '') => {
    const notification = { data, close: vi.fn() };
    return dispatch('notificationclick', { notification, action }).then(() => notification);
  };
  return { sw, windows, push, click };
}

const shown = (worker: ReturnType<typeof fakeWorker>) =>
  worker.sw.registration.showNotification.mock.calls as unknown as [
    string,
    Record<string, unknown>,
  ][];

describe('a push message', () => {
  it('shows the friend request with its avatar, badge, tag and answer buttons', async () => {
    const worker = fakeWorker();
    await worker.push(JSON.stringify(request));
    expect(shown(worker)).toEqual([
      [
        'Orbit',
        {
          body: '@alice sent you a friend request',
          icon: `${ORIGIN}/uploads/avatars/alice.png`,
          badge: BADGE_ICON,
          tag: 'orbit-friend-req-1',
          renotify: false,
          data: request,
          timestamp: Date.parse(request.createdAt),
          actions: [
            { action: 'accept', title: 'Accept' },
            { action: 'decline', title: 'Decline' },
          ],
        },
      ],
    ]);
  });

  it('shows an accepted request without buttons and with the default avatar when none is set', async () => {
    const worker = fakeWorker();
    const accepted = {
      ...request,
      kind: 'friend_accepted',
      actor: { ...request.actor, profileImage: '' },
    };
    await worker.push(JSON.stringify(accepted));
    const [title, options] = shown(worker)[0] ?? [];
    expect(title).toBe('Orbit');
    expect(options).toMatchObject({
      body: '@alice accepted your friend request',
      icon: `${ORIGIN}/profilepic.jpg`,
      tag: 'orbit-friend-req-1',
    });
    expect(options).not.toHaveProperty('actions');
  });

  it('sets the app badge to the unread count', async () => {
    const worker = fakeWorker();
    await worker.push(JSON.stringify(request));
    expect(worker.sw.navigator.setAppBadge).toHaveBeenCalledWith(3);
  });

  it('still shows the notification where there is no app badge', async () => {
    const worker = fakeWorker({ appBadge: false });
    await worker.push(JSON.stringify(request));
    expect(shown(worker)).toHaveLength(1);
  });

  it.each([
    ['an empty message', null],
    ['an empty text', ''],
    ['text that is not JSON', 'hello'],
    ['JSON of another shape', JSON.stringify({ kind: 'friend_request' })],
    ['a link to another site', JSON.stringify({ ...request, url: '//evil.example/x' })],
    [
      'a link browsers read as another site',
      JSON.stringify({ ...request, url: '/\\evil.example' }),
    ],
    ['a negative unread count', JSON.stringify({ ...request, unread: -1 })],
    [
      'an actor without a name',
      JSON.stringify({ ...request, actor: { ...request.actor, username: '' } }),
    ],
  ])('shows a plain Orbit notification for %s', async (_name, text) => {
    const worker = fakeWorker();
    await worker.push(text);
    expect(shown(worker)).toEqual([
      [
        'Orbit',
        { icon: '/icons/icon-192.png', badge: BADGE_ICON, data: { url: NOTIFICATIONS_URL } },
      ],
    ]);
    expect(worker.sw.navigator.setAppBadge).not.toHaveBeenCalled();
  });
});

describe('a click on a notification', () => {
  let worker: ReturnType<typeof fakeWorker>;
  beforeEach(() => {
    worker = fakeWorker();
  });

  it('closes it, focuses the visible Orbit window and tells it where to go', async () => {
    const hidden = fakeWindow();
    const visible = fakeWindow({ visibilityState: 'visible' });
    worker.windows.push(hidden, visible);
    const notification = await worker.click(request);
    expect(notification.close).toHaveBeenCalled();
    expect(visible.focus).toHaveBeenCalled();
    expect(visible.postMessage).toHaveBeenCalledWith({ type: 'navigate', url: '/profile/alice' });
    expect(hidden.postMessage).not.toHaveBeenCalled();
    expect(worker.sw.clients.openWindow).not.toHaveBeenCalled();
  });

  it('prefers the focused window', async () => {
    const visible = fakeWindow({ visibilityState: 'visible' });
    const focused = fakeWindow({ focused: true, visibilityState: 'visible' });
    worker.windows.push(visible, focused);
    await worker.click(request);
    expect(focused.postMessage).toHaveBeenCalledWith({ type: 'navigate', url: '/profile/alice' });
    expect(visible.postMessage).not.toHaveBeenCalled();
  });

  it('opens a window at the page when none is open', async () => {
    await worker.click(request);
    expect(worker.sw.clients.matchAll).toHaveBeenCalledWith({
      type: 'window',
      includeUncontrolled: true,
    });
    expect(worker.sw.clients.openWindow).toHaveBeenCalledWith('/profile/alice');
  });

  it('opens the notifications panel for a notification without a page of its own', async () => {
    await worker.click({ url: 'https://evil.example/' });
    expect(worker.sw.clients.openWindow).toHaveBeenCalledWith(NOTIFICATIONS_URL);
  });
});

describe('the Accept and Decline buttons', () => {
  let worker: ReturnType<typeof fakeWorker>;
  beforeEach(() => {
    worker = fakeWorker();
  });

  it('accepts the request with the session cookie and says so in the same notification', async () => {
    const notification = await worker.click(request, 'accept');
    expect(worker.sw.fetch).toHaveBeenCalledWith(`${ORIGIN}/api/users/friends/accept`, {
      method: 'POST',
      credentials: 'include',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ fromUserId: 'u-alice', username: 'alice' }),
    });
    const [title, options] = shown(worker)[0] ?? [];
    expect(title).toBe('Orbit');
    expect(options).toMatchObject({
      body: 'You and @alice are now friends',
      tag: 'orbit-friend-req-1',
      renotify: false,
      data: { url: '/profile/alice' },
    });
    expect(options).not.toHaveProperty('actions');
    expect(notification.close).not.toHaveBeenCalled();
    expect(worker.sw.clients.openWindow).not.toHaveBeenCalled();
  });

  it('declines the request and says so', async () => {
    await worker.click(request, 'decline');
    expect(worker.sw.fetch.mock.calls[0]?.[0]).toBe(`${ORIGIN}/api/users/friends/decline`);
    expect(shown(worker)[0]?.[1]).toMatchObject({
      body: 'Friend request declined',
      tag: 'orbit-friend-req-1',
    });
  });

  it('opens the profile when the server refuses the answer', async () => {
    worker.sw.fetch.mockResolvedValueOnce(new Response('{"error":"Not found"}', { status: 404 }));
    const notification = await worker.click(request, 'accept');
    expect(notification.close).toHaveBeenCalled();
    expect(shown(worker)).toEqual([]);
    expect(worker.sw.clients.openWindow).toHaveBeenCalledWith('/profile/alice');
  });

  it('opens the profile when the server cannot be reached', async () => {
    worker.sw.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await worker.click(request, 'decline');
    expect(shown(worker)).toEqual([]);
    expect(worker.sw.clients.openWindow).toHaveBeenCalledWith('/profile/alice');
  });

  it('does not answer anything for a notification that is not a request', async () => {
    await worker.click({ ...request, kind: 'friend_accepted' }, 'accept');
    expect(worker.sw.fetch).not.toHaveBeenCalled();
    expect(worker.sw.clients.openWindow).toHaveBeenCalledWith('/profile/alice');
  });
});

describe('the API host seen from the worker', () => {
  it.each([
    [undefined, ORIGIN],
    ['', ORIGIN],
    ['self', ORIGIN],
    ['https://api.orbit.example/', 'https://api.orbit.example'],
  ])('is %j → %s', (setting, expected) => {
    expect(workerApiOrigin(setting, ORIGIN)).toBe(expected);
  });
});
