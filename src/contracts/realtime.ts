/**
 * Every socket event name and payload, declared once for the server and the client: the server's
 * emits are typed by the schemas, and the client parses every event it receives with them.
 */
import { z } from './zod.ts';
import { GalleryImageDeleted, GalleryImage } from './gallery.ts';
import { Notification, NotificationsChanged } from './notifications.ts';

/** `fromUserId` is the member who acted, `toUserId` the other one; `pairKey` names the pair. */
export const FriendEventPayload = z.object({
  fromUserId: z.string(),
  toUserId: z.string(),
  pairKey: z.string(),
});
export type FriendEventPayload = z.infer<typeof FriendEventPayload>;

export const PresenceUpdate = z.object({ userId: z.string(), online: z.boolean() });
export type PresenceUpdate = z.infer<typeof PresenceUpdate>;

export const FRIEND_EVENTS = [
  'friend:request:created',
  'friend:request:canceled',
  'friend:accepted',
  'friend:declined',
  'friend:removed',
] as const;
export type FriendEvent = (typeof FRIEND_EVENTS)[number];

/** Server → client: each event's one payload schema. */
export const SERVER_EVENT_SCHEMAS = {
  'friend:request:created': FriendEventPayload,
  'friend:request:canceled': FriendEventPayload,
  'friend:accepted': FriendEventPayload,
  'friend:declined': FriendEventPayload,
  'friend:removed': FriendEventPayload,
  'presence:update': PresenceUpdate,
  'gallery:image:created': GalleryImage,
  'gallery:image:updated': GalleryImage,
  'gallery:image:deleted': GalleryImageDeleted,
  'notification:new': Notification,
  'notification:changed': NotificationsChanged,
} satisfies Record<string, z.ZodType>;

export type ServerEvent = keyof typeof SERVER_EVENT_SCHEMAS;
export type ServerEventPayload<E extends ServerEvent> = z.infer<(typeof SERVER_EVENT_SCHEMAS)[E]>;

/** Server → client, as socket.io types its emits and listeners. */
export type ServerToClientEvents = {
  [E in ServerEvent]: (payload: ServerEventPayload<E>) => void;
};

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
