import { BELL_BADGE_CAP, UNREAD_DISPLAY_CAP } from '../../lib/constants.ts';
import type { FriendListItem } from '../../contracts/friends.ts';
import { NOTIFICATION_MESSAGES, type Notification } from '../../contracts/notifications.ts';

/** Synthesised items carry this id prefix, so they never collide with the server's numeric ids. */
const SYNTH_PREFIX = 'fr:';

export function isSynthesised(notification: Notification): boolean {
  return notification.type === 'friend_request' && notification.id.startsWith(SYNTH_PREFIX);
}

/** A friend-request notification made on the client from an incoming request (docs/product.md "Notification state"). */
export function synthesise(request: FriendListItem): Notification {
  const { username } = request.user;
  const { requestId } = request;
  return {
    id: `${SYNTH_PREFIX}${requestId}`,
    type: 'friend_request',
    actor: {
      id: request.user.id || request.fromUserId,
      username,
      profileImage: request.user.profileImage,
    },
    message: NOTIFICATION_MESSAGES.friendRequest,
    link: `/profile/${username}`,
    createdAt: request.createdAt,
    read: false,
    requestId,
  };
}

/** The second identity of docs/product.md "Notification state": type + requestId + actor id + link. */
function contentKey(notification: Notification): string {
  return [
    notification.type,
    notification.requestId ?? '',
    notification.actor?.id ?? '',
    notification.link,
  ].join('|');
}

/** Keeps the first of each duplicate, by `id` or by type + requestId + actor id + link. */
export function dedupe(list: readonly Notification[]): Notification[] {
  const ids = new Set<string>();
  const keys = new Set<string>();
  const out: Notification[] = [];
  for (const item of list) {
    const key = contentKey(item);
    if (ids.has(item.id) || keys.has(key)) continue;
    ids.add(item.id);
    keys.add(key);
    out.push(item);
  }
  return out;
}

function time(notification: Notification): number {
  const value = Date.parse(notification.createdAt);
  return Number.isNaN(value) ? 0 : value;
}

/** Newest first; equal times fall back to the larger (newer) server id. */
export function sortNewest(list: readonly Notification[]): Notification[] {
  return [...list].sort((a, b) => {
    const diff = time(b) - time(a);
    if (diff !== 0) return diff;
    const na = Number(a.id);
    const nb = Number(b.id);
    if (Number.isFinite(na) && Number.isFinite(nb)) return nb - na;
    return 0;
  });
}

/** Server notifications win over synthesised ones when both describe the same request. */
export function mergeNotifications(
  server: readonly Notification[],
  synthesised: readonly Notification[],
): Notification[] {
  return sortNewest(dedupe([...server, ...synthesised]));
}

/**
 * The cached friend-request notifications merged with fresh incoming requests: the fresh list says
 * which requests are still pending, the cache remembers which of them were read.
 */
export function mergeCached(
  cached: readonly Notification[],
  fresh: readonly Notification[],
): Notification[] {
  const readIds = new Set(cached.filter((item) => item.read).map((item) => item.id));
  return fresh.map((item) => (readIds.has(item.id) ? { ...item, read: true } : item));
}

/** Synthesised items that the server does not already hold (they add to the unread count). */
export function extraSynthesised(
  server: readonly Notification[],
  synthesised: readonly Notification[],
): Notification[] {
  const ids = new Set(server.map((item) => item.id));
  const keys = new Set(server.map(contentKey));
  return synthesised.filter((item) => !ids.has(item.id) && !keys.has(contentKey(item)));
}

/**
 * The bell badge: unread plus incoming requests, capped at '99+'; empty at zero (docs/product.md "Notification bell"). An unread
 * friend-request notification and its incoming request are one thing to answer, so it counts once.
 */
export function badgeText(unread: number, incoming: number, unreadRequestItems = 0): string {
  const total = Math.max(0, unread - unreadRequestItems) + Math.max(0, incoming);
  if (total <= 0) return '';
  return total > BELL_BADGE_CAP ? `${BELL_BADGE_CAP}+` : String(total);
}

/** The unread count as the notification context shows it: '50+' at 51 or more (docs/product.md "Limits and timings"). */
export function unreadDisplay(unread: number): string {
  return unread > UNREAD_DISPLAY_CAP ? `${UNREAD_DISPLAY_CAP}+` : String(Math.max(0, unread));
}

/** docs/product.md "Notifications panel": 's ago' under a minute, 'm ago' under an hour, 'h ago' under a day, 'd ago' under a week. */
export function relativeTime(createdAt: string, now = Date.now()): string {
  const then = Date.parse(createdAt);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, Math.floor((now - then) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return new Date(then).toLocaleString();
}

/** 'Error: {message}' text of a failed list call (docs/product.md "Errors": 'Failed to load' with no body). */
export function loadErrorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const { serverMessage, body, status, message } = error as {
      serverMessage?: unknown;
      body?: unknown;
      status?: unknown;
      message?: unknown;
    };
    if (typeof serverMessage === 'string' && serverMessage) return serverMessage;
    if (typeof status === 'number')
      return typeof body === 'string' && body.trim() ? body.trim().slice(0, 160) : 'Failed to load';
    if (typeof message === 'string' && message) return message;
  }
  return 'Failed to load';
}
