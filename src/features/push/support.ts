import { isStandalone } from '../offline/install.ts';

/** What this browser can do about push, before any permission is asked. */
export type PushSupport = 'supported' | 'unsupported' | 'ios-needs-install';

/** The parts of `window` the answer depends on, so tests can describe any browser. */
export interface PushEnvironment {
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  userAgent: string;
  maxTouchPoints: number;
  standalone: boolean;
}

export function currentEnvironment(): PushEnvironment {
  return {
    hasServiceWorker: 'serviceWorker' in navigator,
    hasPushManager: 'PushManager' in window,
    hasNotification: 'Notification' in window,
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints,
    standalone: isStandalone(window),
  };
}

/** iPadOS presents itself as a Mac; a Mac has no touch screen. */
function isAppleMobile({ userAgent, maxTouchPoints }: PushEnvironment): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

/** iOS and iPadOS deliver web push only to an app added to the Home Screen. */
export function pushSupport(env: PushEnvironment): PushSupport {
  if (isAppleMobile(env) && !env.standalone) return 'ios-needs-install';
  if (env.hasServiceWorker && env.hasPushManager && env.hasNotification) return 'supported';
  return 'unsupported';
}

/** A base64url VAPID key as the bytes `pushManager.subscribe` and `options` use. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

/** Whether a subscription was made for this server key (it changes when the relay's key does). */
export function sameKey(current: ArrayBuffer | null, expected: Uint8Array): boolean {
  if (!current || current.byteLength !== expected.byteLength) return false;
  const bytes = new Uint8Array(current);
  return bytes.every((byte, index) => byte === expected[index]);
}
