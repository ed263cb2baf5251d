import {
  NOTIFICATION_MESSAGES,
  NOTIFICATIONS_PAGE_MAX,
  NOTIFICATIONS_PAGE_SIZE,
  type Notification,
  type NotificationPage,
  type NotificationType,
  type NotificationsChanged,
} from '../../../../src/contracts/notifications.ts';
import { NOTIFICATION_TYPES } from '../../../../src/contracts/notifications.ts';
import { RULES_PATH } from '../../../../src/contracts/safety.ts';
import type { Db } from '../../db/index.ts';
import type { NotificationRow, UserRow } from '../../db/schema.ts';
import { Invalid, NotFound } from '../../errors.ts';
import type { MediaUrl } from '../../media/index.ts';
import * as repo from './repository.ts';

/** Tells a member's tabs about their notifications (`app.notificationEvents` in the app). */
export interface NotificationEvents {
  created: (recipientId: string, notification: Notification) => void;
  changed: (recipientId: string, change: NotificationsChanged) => void;
}

export interface NotificationDeps {
  db: Db;
  events: NotificationEvents;
  mediaUrl: MediaUrl;
  now?: () => Date;
}

const stamp = (deps: { now?: () => Date }) => (deps.now ? deps.now() : new Date()).toISOString();

function toNotification(
  { notification, actor }: repo.NotificationWithActor,
  mediaUrl: MediaUrl,
): Notification {
  const type = (NOTIFICATION_TYPES as readonly string[]).includes(notification.type)
    ? (notification.type as NotificationType)
    : 'system';
  return {
    id: String(notification.id),
    type,
    actor: actor
      ? {
          id: actor.id,
          username: actor.username,
          profileImage: mediaUrl(actor.profile_image),
        }
      : null,
    message: notification.message,
    link: notification.link,
    createdAt: notification.created_at,
    read: notification.read_at !== null,
    requestId: notification.request_id,
  };
}

/** Who a notification is from, as the caller already has them (their row, or these fields of it). */
export type NotificationActor = Pick<UserRow, 'id' | 'username' | 'profile_image'>;

export interface Draft {
  recipientId: string;
  type: NotificationType;
  actor: NotificationActor | null;
  message: string;
  link: string;
  requestId?: string | null;
  imageId?: string | null;
}

/** What announcing a notification takes once its transaction has committed. */
export type Announce = (deps: NotificationDeps) => Promise<void>;

/**
 * Announces a notification from what the writer already holds: the row the insert returned and
 * the actor the draft names; nothing is read back
 * (docs/decisions.md "Notifications are announced as written").
 */
function announcer(draft: Draft, row: NotificationRow): Announce {
  return (deps) => {
    deps.events.created(
      draft.recipientId,
      toNotification({ notification: row, actor: draft.actor }, deps.mediaUrl),
    );
    return Promise.resolve();
  };
}

/**
 * Writes a notification with the caller's database handle — pass the transaction of the action that
 * causes it, so both are saved or neither. Answers a function that announces it; call that after
 * the transaction has committed.
 */
export async function record(
  db: Db,
  draft: Draft,
  now = new Date().toISOString(),
): Promise<Announce> {
  const row = await repo.insertNotification(db, {
    recipient_id: draft.recipientId,
    type: draft.type,
    actor_id: draft.actor?.id ?? null,
    message: draft.message,
    link: draft.link,
    request_id: draft.requestId ?? null,
    image_id: draft.imageId ?? null,
    read_at: null,
    created_at: now,
  });
  return announcer(draft, row);
}

/**
 * Records a like notification unless the actor already told the recipient they like this image,
 * in one statement. Answers its announcer, or undefined when it was not news.
 */
export async function recordLikeOnce(
  db: Db,
  draft: Draft & { actor: NotificationActor; imageId: string },
  now = new Date().toISOString(),
): Promise<Announce | undefined> {
  const row = await repo.insertLikeNotificationOnce(db, {
    recipient_id: draft.recipientId,
    type: draft.type,
    actor_id: draft.actor.id,
    message: draft.message,
    link: draft.link,
    image_id: draft.imageId,
    created_at: now,
  });
  return row && announcer(draft, row);
}

/** A friend event's notification, linking to the profile of the member who acted. */
const friendDraft =
  (type: 'friend_request' | 'follow', message: string) =>
  (recipientId: string, actor: NotificationActor, requestId: string): Draft => ({
    recipientId,
    type,
    actor,
    message,
    link: `/profile/${actor.username}`,
    requestId,
  });

/** A notification from Orbit itself: no member acted. */
const systemDraft =
  (message: string, link: string) =>
  (recipientId: string): Draft => ({ recipientId, type: 'system', actor: null, message, link });

export const drafts = {
  friendRequest: friendDraft('friend_request', NOTIFICATION_MESSAGES.friendRequest),
  accepted: friendDraft('follow', NOTIFICATION_MESSAGES.accepted),
  like: (
    recipientId: string,
    ownerUsername: string,
    actor: NotificationActor,
    imageId: string,
  ) => ({
    recipientId,
    type: 'like' as const,
    actor,
    message: NOTIFICATION_MESSAGES.like,
    link: `/profile/${ownerUsername}?image=${imageId}`,
    imageId,
  }),
  welcome: systemDraft(NOTIFICATION_MESSAGES.welcome, '/settings'),
  /** docs/product.md "Moderation": told to the owner, naming no moderator, linking to the rules. */
  photoRemoved: (recipientId: string, notice: string) =>
    systemDraft(notice, RULES_PATH)(recipientId),
};

export async function page(
  deps: NotificationDeps,
  me: UserRow,
  limit?: number,
  before?: string,
): Promise<NotificationPage> {
  const size = Math.min(Math.max(limit ?? NOTIFICATIONS_PAGE_SIZE, 1), NOTIFICATIONS_PAGE_MAX);
  const cursor = before === undefined || before === '' ? undefined : Number(before);
  if (cursor !== undefined && !Number.isSafeInteger(cursor))
    throw new Invalid('That page cursor is not valid.');
  // A cursor above every possible id asks for the newest page.
  const rows = await repo.pageFor(
    deps.db,
    me.id,
    size + 1,
    cursor !== undefined && cursor > MAX_NOTIFICATION_ID ? undefined : cursor,
  );
  const items = rows.slice(0, size).map((row) => toNotification(row, deps.mediaUrl));
  return {
    notifications: items,
    nextCursor: rows.length > size ? (items.at(-1)?.id ?? null) : null,
    unread: await repo.unreadCount(deps.db, me.id),
  };
}

/** Notification ids are the database's integer ids: 1 to 2³¹ − 1 on both databases. */
const MAX_NOTIFICATION_ID = 2 ** 31 - 1;
const isNotificationId = (id: number) =>
  Number.isSafeInteger(id) && id > 0 && id <= MAX_NOTIFICATION_ID;

/** The ids that can name a notification; any other names none. */
function parseIds(ids: readonly string[]): number[] {
  return ids.map(Number).filter(isNotificationId);
}

export async function markRead(
  deps: NotificationDeps,
  me: UserRow,
  ids: readonly string[] | 'all',
): Promise<number> {
  const changed = await repo.markRead(
    deps.db,
    me.id,
    ids === 'all' ? null : parseIds(ids),
    stamp(deps),
  );
  const unread = await repo.unreadCount(deps.db, me.id);
  if (changed.length > 0)
    deps.events.changed(me.id, { read: ids === 'all' ? 'all' : changed.map(String), unread });
  return unread;
}

export async function removeOne(deps: NotificationDeps, me: UserRow, id: string): Promise<void> {
  const removed = await repo.remove(deps.db, me.id, parseIds([id]));
  if (removed.length === 0) throw new NotFound('No such notification.');
  deps.events.changed(me.id, {
    removed: removed.map(String),
    unread: await repo.unreadCount(deps.db, me.id),
  });
}

export async function removeAll(deps: NotificationDeps, me: UserRow): Promise<void> {
  await repo.remove(deps.db, me.id, null);
  deps.events.changed(me.id, { removed: 'all', unread: 0 });
}

/**
 * What a friend change or a block does to the notifications of a request, inside that change's
 * transaction `trx`; each answers the ids it changed, for `announceChange` after the commit.
 */
export const requestNotifications = {
  /** A friend request that was answered stays in the list, read. */
  answered: (trx: Db, recipientId: string, requestId: string, now: string) =>
    repo.markRequestRead(trx, recipientId, requestId, now),
  /** A request cancelled or declined takes its notification with it. */
  withdrawn: (trx: Db, recipientId: string, requestId: string) =>
    repo.removeRequestNotification(trx, recipientId, requestId),
  /** A block takes the pair's request and acceptance notifications, both ways, with their recipients. */
  blocked: (trx: Db, memberIds: readonly [string, string], requestId: string) =>
    repo.removePairNotifications(trx, memberIds, requestId),
};

/** After a commit: tell a member's tabs which notifications went or were read. */
export async function announceChange(
  deps: NotificationDeps,
  recipientId: string,
  change: { read?: number[]; removed?: number[] },
): Promise<void> {
  if (!change.read?.length && !change.removed?.length) return;
  deps.events.changed(recipientId, {
    ...(change.read?.length ? { read: change.read.map(String) } : {}),
    ...(change.removed?.length ? { removed: change.removed.map(String) } : {}),
    unread: await repo.unreadCount(deps.db, recipientId),
  });
}
