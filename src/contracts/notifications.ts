/** Notifications (docs/product.md "Notification state", "Notification bell", "Notifications panel"; docs/decisions.md "Notifications on the server"). */

export const NOTIFICATION_TYPES = [
  'like',
  'comment',
  'reply',
  'friend_request',
  'follow',
  'system',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface NotificationActor {
  _id: string;
  username: string;
  profileImage: string;
}

export interface Notification {
  /** Increasing with every notification made: newer ones have larger ids. */
  _id: string;
  type: NotificationType;
  actor: NotificationActor | null;
  message: string;
  link: string;
  createdAt: string;
  read: boolean;
  /** The friend request's id (the pair key) for friend_request and follow. */
  requestId: string | null;
}

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
export interface NotificationsChanged {
  read?: string[] | 'all';
  removed?: string[] | 'all';
  unread: number;
}
