import { ECDH } from 'node:crypto';
import type { Notification } from '../../../../src/contracts/notifications.ts';
import {
  type PushKind,
  type PushPayload,
  type RelayEvent,
  type RelayProgress,
  RelayProgressParts,
  type RelaySubscription,
} from '../../../../src/contracts/push.ts';
import {
  type PushEndpointPolicy,
  pushEndpointProblem,
} from '../../../../src/contracts/pushHosts.ts';
import { SUBSCRIPTION_MESSAGES } from '../../../../src/contracts/pushSubscription.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { PushSubscriptionRow } from '../../db/schema.ts';
import { Invalid, Unavailable } from '../../errors.ts';
import type { MediaUrl } from '../../media/index.ts';
import type { Authenticated } from '../../members/sessions.ts';
import type { LeaseOutcome } from '../../plugins/relay.ts';
import { profileImageUrl } from '../../members/mapping.ts';
import * as repo from './repository.ts';

export interface PushDeps {
  db: Db;
  dialect: Dialect;
  /** Which of these members have an Orbit tab open right now, on any server node. */
  online: (userIds: readonly string[]) => Promise<Set<string>>;
  mediaUrl: MediaUrl;
  now?: () => Date;
}

const PUSH_MESSAGES = {
  unavailable: 'Push notifications are not available right now.',
} as const;

/** A member's devices beyond this many (the least recently registered) are forgotten. */
export const MAX_DEVICES_PER_MEMBER = 20;
/**
 * Subscribing and unsubscribing, together, per member and hour (docs/product.md "Offline, install
 * and push"): a page saves its device once per start, so a member never comes near it.
 */
export const SUBSCRIPTION_CHANGES_PER_HOUR = 30;
/** The most events one catch-up answers. */
const CATCH_UP_MAX = 500;

const VAPID_KEY_SETTING = 'push.vapid_public_key';

const stamp = (deps: { now?: () => Date }) => (deps.now ? deps.now() : new Date()).toISOString();

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of a base64url string, or null when it is not base64url. */
function base64urlBytes(value: string): Buffer | null {
  return BASE64URL.test(value) ? Buffer.from(value, 'base64url') : null;
}

/** An uncompressed P-256 public key (65 bytes, on the curve), as browsers and VAPID use. */
export function isP256PublicKey(value: string): boolean {
  const bytes = base64urlBytes(value);
  if (!bytes || bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    ECDH.convertKey(bytes, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/** The relay's VAPID public key, for the browser's `applicationServerKey`. */
export async function vapidPublicKey(deps: PushDeps, enabled: boolean): Promise<string> {
  const key = enabled ? await repo.readSetting(deps.db, VAPID_KEY_SETTING) : undefined;
  if (!key) throw new Unavailable(PUSH_MESSAGES.unavailable);
  return key;
}

/** Remembers the key a relay brought; answers the key it replaced, if it differs. */
export async function rememberVapidKey(deps: PushDeps, key: string): Promise<string | undefined> {
  const previous = await repo.readSetting(deps.db, VAPID_KEY_SETTING);
  if (previous !== key) await repo.writeSetting(deps.db, VAPID_KEY_SETTING, key, stamp(deps));
  return previous !== undefined && previous !== key ? previous : undefined;
}

export interface DeviceInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * Registers a device for this member and session; answers whether it is new to the server. Only
 * endpoints at a push service `endpoints` accepts are kept (docs/decisions.md "Push through a
 * relay"): the relay would otherwise send requests wherever a member points it. An endpoint is
 * kept only as browsers write it, its own normalised URL, so the relay's sender reads the host
 * this check read.
 */
export async function subscribe(
  deps: PushDeps,
  auth: Authenticated,
  device: DeviceInput,
  endpoints: PushEndpointPolicy,
): Promise<'created' | 'updated'> {
  const problem = pushEndpointProblem(device.endpoint, endpoints);
  if (problem === 'form') throw new Invalid(SUBSCRIPTION_MESSAGES.endpointNotAsBrowsersWrite);
  if (problem === 'service') throw new Invalid(SUBSCRIPTION_MESSAGES.endpointUnsupported);
  // The contract checks the key's length; only the server can check the point lies on the curve.
  if (!isP256PublicKey(device.keys.p256dh)) throw new Invalid(SUBSCRIPTION_MESSAGES.p256dh);
  const created = await repo.upsertSubscription(deps.db, {
    userId: auth.user.id,
    sessionId: auth.sessionId,
    endpoint: device.endpoint,
    p256dh: device.keys.p256dh,
    auth: device.keys.auth,
    now: stamp(deps),
  });
  if (created) await repo.trimSubscriptions(deps.db, auth.user.id, MAX_DEVICES_PER_MEMBER);
  return created ? 'created' : 'updated';
}

/** Forgets one of the member's own devices; someone else's endpoint is left alone. */
export async function unsubscribe(deps: PushDeps, userId: string, endpoint: string) {
  await repo.deleteOwnSubscription(deps.db, userId, endpoint);
}

/** Forgets every device of a member (a suspension): nothing is pushed to them any more. */
export function forgetDevicesOf(db: Db, userId: string): Promise<number> {
  return repo.deleteSubscriptionsOf(db, userId);
}

/** The push service answered 404/410 for this endpoint: the device is gone. */
export function subscriptionGone(deps: PushDeps, endpoint: string): Promise<boolean> {
  return repo.deleteSubscription(deps.db, endpoint);
}

/** A friend notification, in the terms of a push. */
interface FriendNotice {
  id: number;
  recipientId: string;
  kind: PushKind;
  requestId: string;
  actor: PushPayload['actor'];
  createdAt: string;
}

const KIND_OF_TYPE: Record<string, PushKind> = {
  friend_request: 'friend_request',
  follow: 'friend_accepted',
};

function noticeFromNotification(
  recipientId: string,
  notification: Notification,
): FriendNotice | null {
  const kind = KIND_OF_TYPE[notification.type];
  const id = Number(notification.id);
  if (!kind || !notification.actor || !notification.requestId || !Number.isSafeInteger(id))
    return null;
  return {
    id,
    recipientId,
    kind,
    requestId: notification.requestId,
    actor: notification.actor,
    createdAt: notification.createdAt,
  };
}

function noticeFromRow(row: repo.PushableRow, mediaUrl: MediaUrl): FriendNotice | null {
  const kind = KIND_OF_TYPE[row.type];
  if (!kind || !row.request_id) return null;
  return {
    id: row.id,
    recipientId: row.recipient_id,
    kind,
    requestId: row.request_id,
    actor: {
      id: row.actor.id,
      username: row.actor.username,
      profileImage: profileImageUrl(row.actor, mediaUrl),
    },
    createdAt: row.created_at,
  };
}

const toRelaySubscription = (row: PushSubscriptionRow): RelaySubscription => ({
  endpoint: row.endpoint,
  keys: { p256dh: row.p256dh, auth: row.auth },
});

/**
 * Relay events for these notices as things stand now: the recipients' unread counts and devices,
 * and no devices at all for a recipient with an open tab (they see it live).
 */
async function eventsFor(deps: PushDeps, notices: FriendNotice[]): Promise<RelayEvent[]> {
  const recipients = [...new Set(notices.map((notice) => notice.recipientId))];
  const [devices, unread] = await Promise.all([
    repo.subscriptionsOf(deps.db, recipients),
    repo.unreadCounts(deps.db, recipients),
  ]);
  const withDevices = [...new Set(devices.map((device) => device.user_id))];
  const online = await deps.online(withDevices);
  const devicesOf = (userId: string) =>
    online.has(userId)
      ? []
      : devices.filter((device) => device.user_id === userId).map(toRelaySubscription);
  return notices.map((notice) => ({
    recipientId: notice.recipientId,
    subscriptions: devicesOf(notice.recipientId),
    payload: {
      id: notice.id,
      kind: notice.kind,
      requestId: notice.requestId,
      actor: notice.actor,
      url: `/profile/${notice.actor.username}`,
      unread: unread.get(notice.recipientId) ?? 0,
      createdAt: notice.createdAt,
    },
  }));
}

/** The relay event of a notification just announced, or null when it is not a friend event. */
export async function liveEvent(
  deps: PushDeps,
  recipientId: string,
  notification: Notification,
): Promise<RelayEvent | null> {
  const notice = noticeFromNotification(recipientId, notification);
  if (!notice) return null;
  const [event] = await eventsFor(deps, [notice]);
  return event ?? null;
}

/** The newest notification id: every event written so far is at or below it. */
export function latestEventId(deps: PushDeps): Promise<number> {
  return repo.latestNotificationId(deps.db);
}

export interface CatchUp {
  events: RelayEvent[];
  latest: number;
}

/**
 * Unread friend events after `after`, oldest first, recomputed now; `latest` is the newest
 * notification id when asked, and no event is newer. Fewer events than `limit` means everything up
 * to `latest` has been answered.
 */
export async function catchUp(
  deps: PushDeps,
  after: number | null,
  limit: number,
): Promise<CatchUp> {
  const latest = await repo.latestNotificationId(deps.db);
  if (after === null || after >= latest) return { events: [], latest };
  const rows = await repo.unreadFriendNotifications(
    deps.db,
    after,
    latest,
    Math.min(limit, CATCH_UP_MAX),
  );
  const notices = rows
    .map((row) => noticeFromRow(row, deps.mediaUrl))
    .filter((notice) => notice !== null);
  return { events: await eventsFor(deps, notices), latest };
}

// ─── The relay lease ─────────────────────────────────────────────────────────────────────────────

/** The one lease the push relays compete for. */
const RELAY_LEASE = 'push-relay';

function storedProgress(cursor: number | null, text: string): RelayProgress | null {
  if (cursor === null) return null;
  let parts: Omit<RelayProgress, 'cursor'> = { settled: [], sent: [] };
  try {
    const parsed = RelayProgressParts.safeParse(JSON.parse(text));
    if (parsed.success) parts = parsed.data;
  } catch {
    // An unreadable row still has its cursor: the next holder repeats at most what is above it.
  }
  return { cursor, ...parts };
}

/**
 * Grants the push lease to `relayId` for `ttlMs` when nobody else holds it, or renews it; `ttlMs`
 * 0 gives it up. Only the holder pushes, so however many relays run, each event is pushed once.
 */
export async function takeRelayLease(
  deps: PushDeps,
  relayId: string,
  ttlMs: number,
): Promise<LeaseOutcome> {
  const now = stamp(deps);
  const state = await repo.takeLease(deps.db, deps.dialect, {
    name: RELAY_LEASE,
    holder: relayId,
    ttlMs,
    now,
  });
  if (state)
    return {
      granted: true,
      taken: state.heldSince === now,
      progress: storedProgress(state.cursor, state.progress),
    };
  const remaining = await repo.leaseRemainingMs(deps.db, deps.dialect, RELAY_LEASE);
  return { granted: false, retryInMs: Math.max(0, remaining ?? 0) };
}

/**
 * Keeps the holder's progress for whoever holds the lease next; refuses anyone else's (false).
 */
export function reportRelayProgress(
  deps: PushDeps,
  relayId: string,
  progress: RelayProgress,
): Promise<boolean> {
  return repo.saveLeaseProgress(deps.db, {
    name: RELAY_LEASE,
    holder: relayId,
    cursor: progress.cursor,
    progress: JSON.stringify({ settled: progress.settled, sent: progress.sent }),
  });
}
