/// <reference lib="webworker" />
import { PUSH_NAVIGATE, type PushNavigateMessage } from '../src/contracts/pushPayload.ts';
import { answerFriendRequest, workerApiOrigin } from './push-api.ts';
import {
  type OrbitNotification,
  type Origins,
  answeredNotification,
  friendNotification,
  genericNotification,
  notificationUrl,
  readPayload,
  toPayload,
} from './push-notification.ts';

function originsOf(sw: ServiceWorkerGlobalScope): Origins {
  const app = sw.location.origin;
  return { app, api: workerApiOrigin(import.meta.env.VITE_API_ORIGIN, app) };
}

function show(sw: ServiceWorkerGlobalScope, { title, options }: OrbitNotification) {
  return sw.registration.showNotification(title, options);
}

function messageText(data: PushMessageData | null): string | null {
  try {
    return data?.text() ?? null;
  } catch {
    return null;
  }
}

/** The home-screen icon's count follows the unread notifications, where the platform has one. */
async function updateAppBadge(sw: ServiceWorkerGlobalScope, unread: number) {
  if (!('setAppBadge' in sw.navigator)) return;
  await sw.navigator.setAppBadge(unread).catch(() => undefined);
}

/** Every push shows a notification: browsers revoke push from a worker that stays silent. */
async function showPush(sw: ServiceWorkerGlobalScope, data: PushMessageData | null) {
  const payload = readPayload(messageText(data));
  if (!payload) return show(sw, genericNotification());
  const origins = originsOf(sw);
  await Promise.all([
    show(sw, friendNotification(payload, origins)),
    updateAppBadge(sw, payload.unread),
  ]);
}

/** Focuses an open Orbit window and moves it to `url`, or opens a new one there. */
async function focusOrOpen(sw: ServiceWorkerGlobalScope, url: string) {
  const windows = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const target =
    windows.find((client) => client.focused) ??
    windows.find((client) => client.visibilityState === 'visible') ??
    windows[0];
  if (!target) {
    await sw.clients.openWindow(url);
    return;
  }
  const focused = await target.focus().catch(() => target);
  const message: PushNavigateMessage = { type: PUSH_NAVIGATE, url };
  focused.postMessage(message);
}

/**
 * Accept or Decline on a friend request: answered from the worker, then the notification says so.
 * When the answer fails (signed out, request withdrawn) the profile opens instead.
 */
async function answerFromNotification(sw: ServiceWorkerGlobalScope, event: NotificationEvent) {
  const payload = toPayload(event.notification.data);
  const action = event.action;
  if (
    !payload ||
    payload.kind !== 'friend_request' ||
    (action !== 'accept' && action !== 'decline')
  )
    return false;
  const origins = originsOf(sw);
  if (await answerFriendRequest(sw.fetch.bind(sw), origins.api, payload, action)) {
    await show(sw, answeredNotification(payload, action, origins));
  } else {
    event.notification.close();
    await focusOrOpen(sw, payload.url);
  }
  return true;
}

async function handleNotificationClick(sw: ServiceWorkerGlobalScope, event: NotificationEvent) {
  if (event.action && (await answerFromNotification(sw, event))) return;
  event.notification.close();
  await focusOrOpen(sw, notificationUrl(event.notification.data));
}

/** Push, notification click and action handlers of the service worker. */
export function registerPush(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => event.waitUntil(showPush(sw, event.data)));
  sw.addEventListener('notificationclick', (event) =>
    event.waitUntil(handleNotificationClick(sw, event)),
  );
}
