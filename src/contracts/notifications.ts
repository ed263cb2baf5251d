/** Notifications (docs/product.md "Notification state", "Notification bell", "Notifications panel"; docs/decisions.md "Notifications on the server"). */
import { PublicUser } from './user.ts';
import { z } from './zod.ts';

export const NOTIFICATION_TYPES = [
  'like',
  'comment',
  'reply',
  'friend_request',
  'follow',
  'system',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const NotificationActor = z.pick(PublicUser, { id: true, username: true, profileImage: true });
type NotificationActor = z.infer<typeof NotificationActor>;

export const Notification = z.object({
  /** Increasing with every notification made: newer ones have larger ids. */
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  actor: z.nullable(NotificationActor),
  message: z.string(),
  link: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The friend request's id (the pair key) for friend_request and follow. */
  requestId: z.nullable(z.string()),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationPage = z.object({
  notifications: z.array(Notification),
  /** Pass as `before` for the next older page; null when there is none. */
  nextCursor: z.nullable(z.string()),
  unread: z.number(),
});
export type NotificationPage = z.infer<typeof NotificationPage>;

export const NOTIFICATION_MESSAGES = {
  friendRequest: ' sent you a friend request',
  accepted: ' accepted your friend request',
  like: ' liked your photo',
  welcome: 'Welcome to Orbit!',
} as const;

export const NOTIFICATIONS_PAGE_SIZE = 50;
export const NOTIFICATIONS_PAGE_MAX = 100;

export const NOTIFICATION_CURSOR_INVALID = 'That page cursor is not valid.';

export const NotificationPageQuery = z.object({
  /** A notification id (digits) or nothing: a negative one is below what either database counts. */
  before: z.optional(
    z.string().check(z.maxLength(20), z.regex(/^\d*$/, NOTIFICATION_CURSOR_INVALID)),
  ),
  limit: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(NOTIFICATIONS_PAGE_MAX))),
});
export type NotificationPageQuery = z.input<typeof NotificationPageQuery>;

/** Mark some read, or all. */
export const NotificationReadBody = z.union(
  [
    z.object({ all: z.literal(true) }),
    z.object({ ids: z.array(z.string().check(z.maxLength(20))).check(z.maxLength(1000)) }),
  ],
  { error: 'Send {ids: [...]} or {all: true}.' },
);
export type NotificationReadBody = z.infer<typeof NotificationReadBody>;

export const NotificationReadResponse = z.object({ ok: z.literal(true), unread: z.number() });
export type NotificationReadResponse = z.infer<typeof NotificationReadResponse>;

export const NotificationIdParams = z.object({ id: z.string().check(z.maxLength(20)) });
export type NotificationIdParams = z.infer<typeof NotificationIdParams>;

/** Tells a member's other tabs and devices what changed. */
const someOrAll = z.optional(z.union([z.array(z.string()), z.literal('all')]));
export const NotificationsChanged = z.object({
  read: someOrAll,
  removed: someOrAll,
  unread: z.number(),
});
export type NotificationsChanged = z.infer<typeof NotificationsChanged>;

/**
 * One member's synthesised friend-request notifications and the requests they dismissed, as the
 * notifications store keeps them in IndexedDB (src/features/notifications/savedRequests.ts).
 */
export const FriendRequestCache = z.object({
  userId: z.string(),
  items: z.array(Notification),
  dismissed: z.array(z.string()),
  savedAt: z.number(),
});
export type FriendRequestCache = z.infer<typeof FriendRequestCache>;
