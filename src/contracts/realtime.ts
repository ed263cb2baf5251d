/** Every socket event name and payload, typed once for the server, the client and the relay. */
import type { GalleryImage, GalleryImageDeleted } from './gallery.ts';
import type { Notification, NotificationsChanged } from './notifications.ts';

/** `fromUserId` is the member who acted, `toUserId` the other one; `pairKey` names the pair. */
export interface FriendEventPayload {
  fromUserId: string;
  toUserId: string;
  pairKey: string;
}

export interface PresenceUpdate {
  userId: string;
  online: boolean;
}

export const FRIEND_EVENTS = [
  'friend:request:created',
  'friend:request:canceled',
  'friend:accepted',
  'friend:declined',
  'friend:removed',
] as const;
export type FriendEvent = (typeof FRIEND_EVENTS)[number];

/** Server → client. */
export interface ServerToClientEvents {
  'friend:request:created': (payload: FriendEventPayload) => void;
  'friend:request:canceled': (payload: FriendEventPayload) => void;
  'friend:accepted': (payload: FriendEventPayload) => void;
  'friend:declined': (payload: FriendEventPayload) => void;
  'friend:removed': (payload: FriendEventPayload) => void;
  'presence:update': (payload: PresenceUpdate) => void;
  'gallery:image:created': (image: GalleryImage) => void;
  'gallery:image:updated': (image: GalleryImage) => void;
  'gallery:image:deleted': (payload: GalleryImageDeleted) => void;
  'notification:new': (notification: Notification) => void;
  'notification:changed': (change: NotificationsChanged) => void;
}

export interface Ack {
  ok: boolean;
  error?: string;
  /** gallery:join and image:join answer whether the gallery's owner is online. */
  online?: boolean;
}

/** Client → server (docs/product.md "Realtime"). */
export interface ClientToServerEvents {
  'presence:join': (
    payload: { userId: string; username?: string },
    ack?: (result: Ack) => void,
  ) => void;
  'presence:leave': (ack?: (result: Ack) => void) => void;
  'gallery:join': (payload: { ownerId: string }, ack?: (result: Ack) => void) => void;
  'gallery:leave': (payload: { ownerId: string }, ack?: (result: Ack) => void) => void;
  'image:join': (payload: { imageId: string }, ack?: (result: Ack) => void) => void;
  'image:leave': (payload: { imageId: string }, ack?: (result: Ack) => void) => void;
}
