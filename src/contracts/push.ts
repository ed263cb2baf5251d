/**
 * Web Push: the subscription calls (docs/product.md "Offline, install and push"), the
 * payload the service worker receives, and the `/relay` socket.io protocol between the server and
 * push-relay. Shared by client, server, worker and relay; no runtime dependencies.
 */

/** The kinds of friend event that become a push. */
export type PushKind = 'friend_request' | 'friend_accepted';

/** The JSON body of one push message, encrypted by web-push and read by the service worker. */
export interface PushPayload {
  /** The notification id on the server: increasing, used for the relay's catch-up. */
  id: number;
  kind: PushKind;
  /** The friend request the event is about; the notification tag and the push topic. */
  requestId: string;
  actor: { id: string; username: string; profileImage: string };
  /** Where a click takes the member, e.g. `/profile/alice`. */
  url: string;
  /** The recipient's unread notification count after this event, for the app badge. */
  unread: number;
  createdAt: string;
}

export const PUSH_TITLE = 'Orbit';

/** Notification bodies (docs/product.md "Offline, install and push": `@alice sent you a friend request`). */
export function pushBody(payload: Pick<PushPayload, 'kind' | 'actor'>): string {
  return payload.kind === 'friend_request'
    ? `@${payload.actor.username} sent you a friend request`
    : `@${payload.actor.username} accepted your friend request`;
}

/** One notification per request: repeats of the same event replace it instead of stacking. */
export function pushTag(payload: Pick<PushPayload, 'requestId'>): string {
  return `orbit-friend-${payload.requestId}`;
}

/**
 * The push `Topic` header (RFC 8030 §5.4: at most 32 URL-safe base64 characters) is made by the
 * relay from the request id: base64url(SHA-256(requestId)) cut to 32 characters.
 */
export const PUSH_TOPIC_LENGTH = 32;

/** Seconds a push service keeps an undelivered friend event. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

// ─── /relay namespace ────────────────────────────────────────────────────────────────────────────

export const RELAY_NAMESPACE = '/relay';

/** One stored device of a member, as the server gives it to the relay. */
export interface RelaySubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** A friend event for the relay: the payload plus where to send it. */
export interface RelayEvent {
  payload: PushPayload;
  recipientId: string;
  /** Empty when the recipient has an open tab (they see it live) or no device. */
  subscriptions: RelaySubscription[];
}

/** Handshake `auth` of the relay's socket. */
export interface RelayHandshake {
  secret: string;
  /** The relay's VAPID public key; the server hands it to clients. */
  vapidPublicKey: string;
}

export interface RelayServerToClient {
  /**
   * A new friend event, sent to every relay; the one holding the lease calls `ack` once it is
   * handled (sent, dropped or gone), the others at once.
   */
  'relay:event': (event: RelayEvent, ack: () => void) => void;
}

/**
 * The answer to `relay:catch-up`. `latest` is the newest notification id when the server answered;
 * no event is newer. Fewer events than `limit` means everything up to `latest` is answered; a full
 * page means ask again after the last event's id. With `error` (a malformed request, a database
 * failure) nothing else in the answer counts: ask again later.
 */
export interface RelayCatchUpAnswer {
  events: RelayEvent[];
  latest: number;
  error?: string;
}

/**
 * Bounds of a progress report. A socket.io message to the server is at most 16 KB, so the relay
 * also keeps each report under `bytes` of JSON, leaving out the highest ids when there are more.
 */
export const RELAY_PROGRESS_LIMITS = {
  /** Settled events above the cursor. */
  settled: 2_000,
  /** Events under way with some devices done. */
  sent: 200,
  /** Devices per such event. */
  devices: 50,
  bytes: 12 * 1024,
} as const;

/** The longest lease a relay may ask for. */
export const RELAY_LEASE_MAX_MS = 300_000;

/**
 * How far the relays got, kept with the lease so that whichever relay holds it next goes on from
 * there: nothing the last holder settled is pushed again, nothing it had not finished is lost.
 */
export interface RelayProgress {
  /** Every event up to this id is settled (pushed, dropped or given up on). */
  cursor: number;
  /** Events above the cursor already settled while a lower one is still under way. */
  settled: number[];
  /**
   * Events above the cursor still under way, with the devices that already have their push:
   * base64url SHA-256 of the endpoint, cut to 22 characters (an endpoint is a capability URL).
   */
  sent: { id: number; devices: string[] }[];
}

/**
 * The answer to `relay:lease`. Granted: this relay alone pushes until its lease runs out, going on
 * from `progress` (null: no relay has reported yet). Not granted: another relay holds it;
 * `retryInMs` is how long until that lease runs out unless renewed. With `error` (a malformed
 * request, a database failure) nothing is granted: ask again later.
 */
export type RelayLeaseAnswer =
  | { granted: true; progress: RelayProgress | null }
  | { granted: false; retryInMs: number; error?: undefined }
  | { granted: false; retryInMs?: undefined; error: string };

/**
 * The answer to `relay:cursor`. `leaseLost`: another relay holds the lease now, the report was not
 * kept, and this relay must stop pushing. Any other error: nothing was kept; report again later.
 */
export type RelayCursorAnswer = { ok: true } | { ok: false; error: string; leaseLost: boolean };

export interface RelayClientToServer {
  /**
   * Everything after `after` (a payload id), oldest first, recomputed now (open tabs and devices as
   * they are at this moment). `after: null` (first start) answers no events, only `latest`.
   */
  'relay:catch-up': (
    request: { after: number | null; limit: number },
    reply: (answer: RelayCatchUpAnswer) => void,
  ) => void;
  /**
   * Takes or renews the lease that makes one relay of all those connected to any server node the
   * one that pushes. `relayId` is random per relay process; `ttlMs` is how long the lease lasts
   * from the moment the database grants it (0 gives it up when this relay holds it).
   */
  'relay:lease': (
    request: { relayId: string; ttlMs: number },
    reply: (answer: RelayLeaseAnswer) => void,
  ) => void;
  /** Keeps how far the holder of the lease got; refused when `relayId` does not hold it. */
  'relay:cursor': (
    report: RelayProgress & { relayId: string },
    reply: (answer: RelayCursorAnswer) => void,
  ) => void;
  /** A push service answered 404/410: the device is gone. */
  'relay:subscription-gone': (
    request: { endpoint: string },
    ack: (result?: { error: string }) => void,
  ) => void;
}

/** What the service worker posts to an open window after a notification click: go to `url`. */
export const PUSH_NAVIGATE = 'navigate';
export interface PushNavigateMessage {
  type: typeof PUSH_NAVIGATE;
  url: string;
}
