/** Notifications (docs/product.md "Notification state", "Notification bell", "Notifications panel"; docs/decisions.md "Notifications on the server"). */
// zod/mini: the service worker reads saved notifications (src/contracts/offline.ts).
import { z } from 'zod/mini';

export const NOTIFICATION_TYPES = [
  'like',
  'comment',
  'reply',
  'friend_request',
  'follow',
  'system',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NotificationActorSchema = z.object({
  _id: z.string(),
  username: z.string(),
  profileImage: z.string(),
});
export type NotificationActor = z.infer<typeof NotificationActorSchema>;

export const NotificationSchema = z.object({
  /** Increasing with every notification made: newer ones have larger ids. */
  _id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  actor: z.nullable(NotificationActorSchema),
  message: z.string(),
  link: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The friend request's id (the pair key) for friend_request and follow. */
  requestId: z.nullable(z.string()),
});
export type Notification = z.infer<typeof NotificationSchema>;

export interface NotificationPage {
  notifications: Notification[];
  /** Pass as `before` for the next older page; null when there is none. */
  nextCursor: string | null;
  unread: number;
}

export const NOTIFICATION_MESSAGES = {
  friendRequest: ' sent you a friend request',
  accepted: ' accepted your friend request',
  like: ' liked your photo',
  welcome: 'Welcome to Orbit!',
} as const;

export const NOTIFICATIONS_PAGE_SIZE = 50;
export const NOTIFICATIONS_PAGE_MAX = 100;

/** Tells a member's other tabs and devices what changed. */
const someOrAll = z.optional(z.union([z.array(z.string()), z.literal('all')]));
export const NotificationsChangedSchema = z.object({
  read: someOrAll,
  removed: someOrAll,
  unread: z.number(),
});
export type NotificationsChanged = z.infer<typeof NotificationsChangedSchema>;
