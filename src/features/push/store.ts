import { create } from 'zustand';
import type { PushSubscriptionBody } from '../../contracts/pushSubscription.ts';
import { HttpError } from '../../lib/http.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { pushApi } from './api.ts';
import { currentEnvironment, keyBytes, pushSupport, sameKey } from './support.ts';

export type PushStatus =
  'checking' | 'unsupported' | 'ios-needs-install' | 'default' | 'denied' | 'enabled';

export const TURN_ON_FAILED = "Couldn't turn on notifications. Try again.";
export const TURN_OFF_FAILED = "Couldn't turn off notifications. Try again.";
export const PUSH_UNAVAILABLE = "Notifications aren't available right now. Try again later.";
/** How long a click waits for the service worker before it gives up. */
const WORKER_READY_TIMEOUT_MS = 10_000;

interface PushState {
  status: PushStatus;
  /** A turn on or off is under way. */
  working: boolean;
  error: string | null;
  /** On load, signed in: reads this device's state and refreshes the server's copy. */
  sync: () => Promise<void>;
  /** Only from a click: asks permission, subscribes and registers the device. */
  turnOn: () => Promise<void>;
  turnOff: () => Promise<void>;
  /** At logout: the server forgets the device and the browser drops the subscription. */
  forget: () => Promise<void>;
  reset: () => void;
}

const INITIAL = { status: 'checking' as const, working: false, error: null };

function workerReady(): Promise<ServiceWorkerRegistration> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('The service worker did not start')),
      WORKER_READY_TIMEOUT_MS,
    );
    navigator.serviceWorker.ready.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

async function existingSubscription(): Promise<PushSubscription | null> {
  if (pushSupport(currentEnvironment()) !== 'supported') return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

function bodyOf(subscription: PushSubscription): PushSubscriptionBody {
  const { endpoint, keys } = subscription.toJSON();
  return {
    endpoint: endpoint ?? subscription.endpoint,
    keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
  };
}

/** The device's subscription for `key`; one made for an older key is dropped on both sides first. */
async function subscriptionFor(
  registration: ServiceWorkerRegistration,
  key: Uint8Array<ArrayBuffer>,
): Promise<PushSubscription> {
  const existing = await registration.pushManager.getSubscription();
  if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
  if (existing) {
    await pushApi.remove(existing.endpoint).catch(() => undefined);
    await existing.unsubscribe();
  }
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** Registers the device; a subscription the server could not store is dropped so both agree. */
async function register(registration: ServiceWorkerRegistration) {
  const key = keyBytes(await pushApi.publicKey());
  const subscription = await subscriptionFor(registration, key);
  try {
    await pushApi.save(bodyOf(subscription));
  } catch (error) {
    await subscription.unsubscribe().catch(() => undefined);
    throw error;
  }
}

function turnOnError(error: unknown): string {
  return error instanceof HttpError && error.status === 503 ? PUSH_UNAVAILABLE : TURN_ON_FAILED;
}

export const usePush = create<PushState>()((set, get) => ({
  ...INITIAL,

  async sync() {
    const support = pushSupport(currentEnvironment());
    if (support !== 'supported') return set({ status: support });
    if (Notification.permission === 'denied') return set({ status: 'denied' });
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = (await registration?.pushManager.getSubscription()) ?? null;
      if (!registration || !subscription || Notification.permission !== 'granted') {
        return set({ status: 'default' });
      }
      set({ status: 'enabled' });
      await register(registration);
    } catch (error) {
      console.warn('Could not refresh the push subscription', error);
      if (get().status === 'checking') set({ status: 'default' });
    }
  },

  async turnOn() {
    if (get().working) return;
    set({ working: true, error: null });
    try {
      // First, while the click still counts as the member's gesture.
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        return set({ status: permission === 'denied' ? 'denied' : 'default' });
      }
      await register(await workerReady());
      set({ status: 'enabled' });
    } catch (error) {
      console.warn('Turning on notifications failed', error);
      set({ error: turnOnError(error) });
    } finally {
      set({ working: false });
    }
  },

  async turnOff() {
    if (get().working) return;
    set({ working: true, error: null });
    try {
      const subscription = await existingSubscription();
      if (subscription) {
        await pushApi.remove(subscription.endpoint);
        await subscription.unsubscribe();
      }
      set({ status: 'default' });
    } catch (error) {
      console.warn('Turning off notifications failed', error);
      set({ error: TURN_OFF_FAILED });
    } finally {
      set({ working: false });
    }
  },

  async forget() {
    const subscription = await existingSubscription().catch(() => null);
    if (subscription) {
      await pushApi.remove(subscription.endpoint).catch((error: unknown) => {
        console.warn('The server could not forget this device', error);
      });
      await subscription.unsubscribe().catch(() => undefined);
    }
    set(INITIAL);
  },

  reset: () => set(INITIAL),
}));

// At logout the server forgets the device while the session still holds; then the state empties.
joinMemberState('push', {
  beforeLogout: () => usePush.getState().forget(),
  reset: () => usePush.getState().reset(),
});
