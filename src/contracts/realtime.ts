/**
 * Every socket event name and payload, declared once for the server and the client: the server's
 * emits are typed by the schemas, and the client parses every event it receives with them.
 */
import { z } from './zod.ts';
import { GalleryImageDeleted, GalleryImageLive } from './gallery.ts';
import { Notification, NotificationsChanged } from './notifications.ts';

/** `fromUserId` is the member who acted, `toUserId` the other one; `pairKey` names the pair. */
export const FriendEventPayload = z.object({
  fromUserId: z.string(),
  toUserId: z.string(),
  pairKey: z.string(),
});
export type FriendEventPayload = z.infer<typeof FriendEventPayload>;

const PresenceUpdate = z.object({ userId: z.string(), online: z.boolean() });
type PresenceUpdate = z.infer<typeof PresenceUpdate>;

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
  'gallery:image:created': GalleryImageLive,
  'gallery:image:updated': GalleryImageLive,
  'gallery:image:deleted': GalleryImageDeleted,
  'notification:new': Notification,
  'notification:changed': NotificationsChanged,
} satisfies Record<string, z.core.$ZodType>;

type ServerEvent = keyof typeof SERVER_EVENT_SCHEMAS;
type ServerEventPayload<E extends ServerEvent> = z.infer<(typeof SERVER_EVENT_SCHEMAS)[E]>;

/** Server → client, as socket.io types its emits and listeners. */
export type ServerToClientEvents = {
  [E in ServerEvent]: (payload: ServerEventPayload<E>) => void;
};

/** The answer to every client event: gallery:join and image:join say whether the owner is online. */
export const Ack = z.object({
  ok: z.boolean(),
  error: z.optional(z.string()),
  online: z.optional(z.boolean()),
});
export type Ack = z.infer<typeof Ack>;

/** An id as a room name takes it. */
const RoomId = z.string().check(z.minLength(1), z.maxLength(100));

/** `presence:join`: a socket joins its own member's presence, never another's. */
const PresenceJoin = z.object({
  userId: RoomId,
  username: z.optional(z.string().check(z.maxLength(100))),
});
type PresenceJoin = z.infer<typeof PresenceJoin>;

/** `gallery:join` and `gallery:leave`. */
const GalleryRoom = z.object({ ownerId: RoomId });
type GalleryRoom = z.infer<typeof GalleryRoom>;

/** `image:join` and `image:leave`. */
const ImageRoom = z.object({ imageId: RoomId });
type ImageRoom = z.infer<typeof ImageRoom>;

/** Client → server: each event's one payload schema (docs/product.md "Realtime"). */
export const CLIENT_EVENT_SCHEMAS = {
  'presence:join': PresenceJoin,
  'gallery:join': GalleryRoom,
  'gallery:leave': GalleryRoom,
  'image:join': ImageRoom,
  'image:leave': ImageRoom,
} satisfies Record<string, z.core.$ZodType>;

type AckCallback = (result: Ack) => void;

/** Client → server, as socket.io types its emits and listeners. */
export type ClientToServerEvents = {
  [E in keyof typeof CLIENT_EVENT_SCHEMAS]: (
    payload: z.infer<(typeof CLIENT_EVENT_SCHEMAS)[E]>,
    ack?: AckCallback,
  ) => void;
} & { 'presence:leave': (ack?: AckCallback) => void };
