/// <reference lib="webworker" />
import { DEFAULT_AVATAR } from '../src/contracts/constants.ts';
import {
  PUSH_TITLE,
  type PushPayload,
  isAppPath,
  isPushPayload,
  pushBody,
  pushTag,
} from '../src/contracts/pushPayload.ts';

/** A monochrome silhouette: Android draws the status-bar badge from its alpha channel only. */
export const BADGE_ICON = '/icons/badge-72.png';
const APP_ICON = '/icons/icon-192.png';
/** Where a notification without a payload leads: the full-screen notifications panel. */
export const NOTIFICATIONS_URL = '/spacehub?notifications=open';

/** Chromium's options beyond what TypeScript's lib declares. */
interface OrbitNotificationOptions extends NotificationOptions {
  actions?: { action: string; title: string }[];
  renotify?: boolean;
  timestamp?: number;
}

/** Where the app is served and where its API answers, seen from the worker. */
export interface Origins {
  app: string;
  api: string;
}

export interface OrbitNotification {
  title: string;
  options: OrbitNotificationOptions;
}

/** The payload when the value has the shape Orbit sends, else null. */
export function toPayload(value: unknown): PushPayload | null {
  return isPushPayload(value) ? value : null;
}

/** Where a notification leads: its own page on Orbit, else the notifications panel. */
export function notificationUrl(data: unknown): string {
  const url = (data as { url?: unknown } | null)?.url;
  return isAppPath(url) ? url : NOTIFICATIONS_URL;
}

/** The payload of a push message's text, else null (empty, not JSON, wrong shape). */
export function readPayload(text: string | null | undefined): PushPayload | null {
  if (!text) return null;
  try {
    return toPayload(JSON.parse(text));
  } catch {
    return null;
  }
}

/** Avatars under /uploads live on the API host; anything else (or nothing) on the app's. */
function avatarIcon(profileImage: string, appOrigin: string, apiOrigin: string): string {
  const path = profileImage || DEFAULT_AVATAR;
  return new URL(path, path.startsWith('/uploads') ? apiOrigin : appOrigin).href;
}

function timestampOf(createdAt: string): number {
  const time = Date.parse(createdAt);
  return Number.isFinite(time) ? time : Date.now();
}

/** A notification about one friend request: the actor's face, and one tag per request. */
function aboutRequest(
  payload: PushPayload,
  origins: Origins,
  options: OrbitNotificationOptions,
): OrbitNotification {
  return {
    title: PUSH_TITLE,
    options: {
      icon: avatarIcon(payload.actor.profileImage, origins.app, origins.api),
      badge: BADGE_ICON,
      tag: pushTag(payload),
      renotify: false,
      ...options,
    },
  };
}

/** The notification for one friend event: one per request (its tag), Accept and Decline on requests. */
export function friendNotification(payload: PushPayload, origins: Origins): OrbitNotification {
  return aboutRequest(payload, origins, {
    body: pushBody(payload),
    data: payload,
    timestamp: timestampOf(payload.createdAt),
    ...(payload.kind === 'friend_request'
      ? {
          actions: [
            { action: 'accept', title: 'Accept' },
            { action: 'decline', title: 'Decline' },
          ],
        }
      : {}),
  });
}

/** A push Orbit cannot read must still show something: the push service requires it. */
export function genericNotification(): OrbitNotification {
  return {
    title: PUSH_TITLE,
    options: { icon: APP_ICON, badge: BADGE_ICON, data: { url: NOTIFICATIONS_URL } },
  };
}

/** What a friend request's notification turns into once answered from its buttons. */
export function answeredNotification(
  payload: PushPayload,
  action: 'accept' | 'decline',
  origins: Origins,
): OrbitNotification {
  return aboutRequest(payload, origins, {
    body:
      action === 'accept'
        ? `You and @${payload.actor.username} are now friends`
        : 'Friend request declined',
    data: { url: payload.url },
    timestamp: Date.now(),
  });
}
