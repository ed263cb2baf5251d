import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PUSH_UNAVAILABLE, TURN_OFF_FAILED, TURN_ON_FAILED, usePush } from './store.ts';
import { keyBytes, pushSupport } from './support.ts';

/** Two VAPID public keys (65-byte uncompressed points), as the server sends them. */
const KEY = `BA${'q'.repeat(85)}`;
const NEW_KEY = `BB${'r'.repeat(85)}`;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface FakeSubscription {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer };
  toJSON: () => PushSubscriptionJSON;
  unsubscribe: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
}

/** The browser's push manager: one subscription per device, made for one server key. */
function fakePushManager() {
  let made = 0;
  const manager = {
    current: null as FakeSubscription | null,
    getSubscription: vi.fn(() => Promise.resolve(manager.current)),
    subscribe: vi.fn((options: PushSubscriptionOptionsInit) => {
      manager.current = subscription(
        `https://push.example/send/${++made}`,
        options.applicationServerKey as Uint8Array<ArrayBuffer>,
      );
      return Promise.resolve(manager.current);
    }),
  };
  function subscription(endpoint: string, key: Uint8Array<ArrayBuffer>): FakeSubscription {
    return {
      endpoint,
      options: { applicationServerKey: key.slice().buffer },
      toJSON: () => ({ endpoint, keys: { p256dh: `p256dh-${endpoint}`, auth: 'auth-secret' } }),
      unsubscribe: vi.fn(() => {
        manager.current = null;
        return Promise.resolve(true);
      }),
    };
  }
  return { manager, subscription };
}

let push: ReturnType<typeof fakePushManager>;
let permission: NotificationPermission;
let answer: NotificationPermission;
let requestPermission: ReturnType<typeof vi.fn<() => Promise<NotificationPermission>>>;
let fetchMock: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;
let serverKey: string | null;
let saveStatus: number;
let removeStatus: number;

const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => (init?.method ?? 'GET') === method && new URL(url).pathname === path,
  );
const bodies = (method: string): unknown[] =>
  calls(method, '/api/push/subscriptions').map(
    ([, init]) => JSON.parse(init?.body as string) as unknown,
  );

function answerFromServer(url: string, init?: RequestInit): Promise<Response> {
  const path = new URL(url).pathname;
  const method = init?.method ?? 'GET';
  if (path === '/api/push/vapid-public-key') {
    return Promise.resolve(
      serverKey ? json({ publicKey: serverKey }) : json({ error: 'Push is off' }, 503),
    );
  }
  if (path === '/api/push/subscriptions' && method === 'POST') {
    return Promise.resolve(json({ ok: true }, saveStatus));
  }
  if (path === '/api/push/subscriptions' && method === 'DELETE') {
    return Promise.resolve(new Response(null, { status: removeStatus }));
  }
  return Promise.resolve(json({ error: 'Not found' }, 404));
}

function browserWithPush() {
  push = fakePushManager();
  const registration = { pushManager: push.manager };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    get permission() {
      return permission;
    },
    requestPermission,
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      ready: Promise.resolve(registration),
      getRegistration: () => Promise.resolve(registration),
    },
  });
}

beforeEach(() => {
  usePush.getState().reset();
  permission = 'default';
  answer = 'granted';
  requestPermission = vi.fn(() => {
    permission = answer;
    return Promise.resolve(answer);
  });
  serverKey = KEY;
  saveStatus = 201;
  removeStatus = 204;
  fetchMock = vi.fn(answerFromServer);
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  browserWithPush();
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

const state = () => usePush.getState();

describe('what the browser supports', () => {
  const desktop = {
    hasServiceWorker: true,
    hasPushManager: true,
    hasNotification: true,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36',
    maxTouchPoints: 0,
    standalone: false,
  };
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';
  const ipad =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605.1.15';

  it('is push where service worker, push manager and notifications exist', () => {
    expect(pushSupport(desktop)).toBe('supported');
  });

  it.each(['hasServiceWorker', 'hasPushManager', 'hasNotification'] as const)(
    'is unsupported without %s',
    (missing) => {
      expect(pushSupport({ ...desktop, [missing]: false })).toBe('unsupported');
    },
  );

  it('asks iPhone and iPad visitors to add the app to the home screen first', () => {
    const safari = { ...desktop, hasPushManager: false, maxTouchPoints: 5 };
    expect(pushSupport({ ...safari, userAgent: iphone })).toBe('ios-needs-install');
    expect(pushSupport({ ...safari, userAgent: ipad })).toBe('ios-needs-install');
  });

  it('offers push in the home-screen app on iOS', () => {
    expect(
      pushSupport({ ...desktop, userAgent: iphone, maxTouchPoints: 5, standalone: true }),
    ).toBe('supported');
  });

  it('shows the state on load when the browser has no push', async () => {
    vi.stubGlobal('PushManager', undefined);
    Reflect.deleteProperty(window, 'PushManager');
    await state().sync();
    expect(state().status).toBe('unsupported');
  });
});

describe('on load', () => {
  it('offers to turn on without asking anything', async () => {
    await state().sync();
    expect(state().status).toBe('default');
    expect(requestPermission).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('explains a blocked permission', async () => {
    permission = 'denied';
    await state().sync();
    expect(state().status).toBe('denied');
  });

  it('sends an existing subscription to the server again', async () => {
    permission = 'granted';
    push.manager.current = push.subscription('https://push.example/send/old', keyBytes(KEY));
    await state().sync();
    expect(state().status).toBe('enabled');
    expect(push.manager.subscribe).not.toHaveBeenCalled();
    expect(bodies('POST')).toEqual([
      {
        endpoint: 'https://push.example/send/old',
        keys: { p256dh: 'p256dh-https://push.example/send/old', auth: 'auth-secret' },
      },
    ]);
  });

  it('subscribes again when the server key changed, and drops the old device', async () => {
    permission = 'granted';
    const old = push.subscription('https://push.example/send/old', keyBytes(KEY));
    push.manager.current = old;
    serverKey = NEW_KEY;
    await state().sync();
    expect(old.unsubscribe).toHaveBeenCalled();
    expect(bodies('DELETE')).toEqual([{ endpoint: 'https://push.example/send/old' }]);
    expect(push.manager.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(NEW_KEY),
    });
    expect(bodies('POST').map((body) => (body as { endpoint: string }).endpoint)).toEqual([
      'https://push.example/send/1',
    ]);
    expect(state().status).toBe('enabled');
  });
});

describe('turning on', () => {
  it('asks permission at once, from the click, then subscribes and registers the device', async () => {
    const done = state().turnOn();
    // Before anything is awaited: the click's user activation is still there.
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(state().working).toBe(true);
    await done;
    expect(push.manager.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(KEY),
    });
    expect(bodies('POST')).toEqual([
      {
        endpoint: 'https://push.example/send/1',
        keys: { p256dh: 'p256dh-https://push.example/send/1', auth: 'auth-secret' },
      },
    ]);
    expect(state()).toMatchObject({ status: 'enabled', working: false, error: null });
  });

  it('stops at a refused permission and explains it', async () => {
    answer = 'denied';
    await state().turnOn();
    expect(state().status).toBe('denied');
    expect(push.manager.subscribe).not.toHaveBeenCalled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stays off when the permission prompt is dismissed', async () => {
    answer = 'default';
    await state().turnOn();
    expect(state()).toMatchObject({ status: 'default', working: false, error: null });
    expect(push.manager.subscribe).not.toHaveBeenCalled();
  });

  it('says when the server has no push key', async () => {
    serverKey = null;
    await state().sync();
    await state().turnOn();
    expect(state()).toMatchObject({ status: 'default', error: PUSH_UNAVAILABLE });
    expect(push.manager.subscribe).not.toHaveBeenCalled();
  });

  it('drops the subscription when the server could not store it', async () => {
    saveStatus = 500;
    await state().sync();
    await state().turnOn();
    expect(state()).toMatchObject({ status: 'default', error: TURN_ON_FAILED });
    expect(push.manager.current).toBeNull();
  });
});

describe('turning off', () => {
  beforeEach(async () => {
    await state().turnOn();
    fetchMock.mockClear();
  });

  it('removes the device on the server and unsubscribes', async () => {
    const subscription = push.manager.current;
    await state().turnOff();
    expect(bodies('DELETE')).toEqual([{ endpoint: 'https://push.example/send/1' }]);
    expect(subscription?.unsubscribe).toHaveBeenCalled();
    expect(state()).toMatchObject({ status: 'default', error: null });
  });

  it('stays on when the server could not remove the device', async () => {
    removeStatus = 500;
    await state().turnOff();
    expect(push.manager.current).not.toBeNull();
    expect(state()).toMatchObject({ status: 'enabled', error: TURN_OFF_FAILED });
  });

  it('forgets the device at logout', async () => {
    const subscription = push.manager.current;
    await state().forget();
    expect(bodies('DELETE')).toEqual([{ endpoint: 'https://push.example/send/1' }]);
    expect(subscription?.unsubscribe).toHaveBeenCalled();
    expect(state().status).toBe('checking');
  });

  it('still unsubscribes at logout when the server cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await state().forget();
    expect(push.manager.current).toBeNull();
  });
});
