/**
 * Web Push: the subscription calls (docs/product.md "Offline, install and push"), the
 * payload the service worker receives, and the `/relay` socket.io protocol between the server and
 * push-relay. Shared by client, server, worker and relay.
 */
import { type PushPayload as Payload, isPushPayload } from './pushPayload.ts';
import { PUSH_ENDPOINT_MAX_LENGTH } from './pushSubscription.ts';
import { mismatch } from './records.ts';
import { z } from './zod.ts';

export type { PushKind } from './pushPayload.ts';
export type PushPayload = Payload;

const EventIdSchema = z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));

/** The push message's body, checked as the service worker checks it (pushPayload.ts). */
export const PushPayload = z.custom<Payload>(isPushPayload, {
  error: (issue) =>
    `Invalid push payload: ${mismatch(isPushPayload, issue.input) || 'not an object'}`,
});

/**
 * The push `Topic` header (RFC 8030 §5.4: at most 32 URL-safe base64 characters) is made by the
 * relay from the request id: base64url(SHA-256(requestId)) cut to 32 characters.
 */
export const PUSH_TOPIC_LENGTH = 32;

/** Seconds a push service keeps an undelivered friend event. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

// ─── /relay namespace ────────────────────────────────────────────────────────────────────────────

export const RELAY_NAMESPACE = '/relay';

const nonEmpty = () => z.string().check(z.minLength(1));

/** One stored device of a member, as the server gives it to the relay. */
export const RelaySubscription = z.object({
  endpoint: nonEmpty(),
  keys: z.object({ p256dh: nonEmpty(), auth: nonEmpty() }),
});
export type RelaySubscription = z.infer<typeof RelaySubscription>;

/** A friend event for the relay: the payload plus where to send it. */
export const RelayEvent = z.object({
  payload: PushPayload,
  recipientId: z.string(),
  /** Empty when the recipient has an open tab (they see it live) or no device. */
  subscriptions: z.array(RelaySubscription),
});
export type RelayEvent = z.infer<typeof RelayEvent>;

/** Handshake `auth` of the relay's socket. */
export const RelayHandshake = z.object({
  secret: z.string(),
  /** The relay's VAPID public key; the server hands it to clients. */
  vapidPublicKey: z.string(),
});
export type RelayHandshake = z.infer<typeof RelayHandshake>;

/** The most members one `relay:members-gone` names. */
export const RELAY_MEMBERS_GONE_MAX = 1_000;

/**
 * `relay:members-gone`: these members' accounts are deleted. Pushes to them or about them that a
 * relay has not delivered yet are dropped (docs/decisions.md "Leaving: delete and export").
 */
export const RelayMembersGone = z.object({
  memberIds: z
    .array(z.string().check(z.minLength(1)))
    .check(z.minLength(1), z.maxLength(RELAY_MEMBERS_GONE_MAX)),
});
export type RelayMembersGone = z.infer<typeof RelayMembersGone>;

/**
 * `relay:pair-blocked`: one of these two members blocked the other. Pushes between them for
 * events up to `upTo` (the newest notification id once the block was written) that a relay has not
 * delivered yet are dropped (docs/decisions.md "What a block ends, and who hears of it").
 */
export const RelayPairBlocked = z.object({
  memberIds: z.tuple([z.string().check(z.minLength(1)), z.string().check(z.minLength(1))]),
  upTo: z.number().check(z.int(), z.nonnegative()),
});
export type RelayPairBlocked = z.infer<typeof RelayPairBlocked>;

export interface RelayServerToClient {
  /**
   * A new friend event, sent to every relay; the one holding the lease calls `ack` once it is
   * handled (sent, dropped or gone), the others at once.
   */
  'relay:event': (event: RelayEvent, ack: () => void) => void;
  /** Sent to every relay when accounts are deleted; nothing is answered. */
  'relay:members-gone': (notice: RelayMembersGone) => void;
  /** Sent to every relay when a member blocks another; nothing is answered. */
  'relay:pair-blocked': (notice: RelayPairBlocked) => void;
}

/**
 * The answer to `relay:catch-up`. `latest` is the newest notification id when the server answered;
 * no event is newer. Fewer events than `limit` means everything up to `latest` is answered; a full
 * page means ask again after the last event's id. With `error` (a malformed request, a database
 * failure) nothing else in the answer counts: ask again later.
 */
export const RelayCatchUpAnswer = z.object({
  events: z.array(RelayEvent),
  latest: z.number(),
  error: z.optional(z.string()),
});
export type RelayCatchUpAnswer = z.infer<typeof RelayCatchUpAnswer>;

/** `relay:catch-up`: see {@link RelayClientToServer}. */
export const RelayCatchUpRequest = z.object({
  after: z.nullable(EventIdSchema),
  limit: z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER)),
});
export type RelayCatchUpRequest = z.infer<typeof RelayCatchUpRequest>;

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
export const RelayProgress = z.object({
  /** Every event up to this id is settled (pushed, dropped or given up on). */
  cursor: EventIdSchema,
  /** Events above the cursor already settled while a lower one is still under way. */
  settled: z.array(EventIdSchema).check(z.maxLength(RELAY_PROGRESS_LIMITS.settled)),
  /**
   * Events above the cursor still under way, with the devices that already have their push:
   * base64url SHA-256 of the endpoint, cut to 22 characters (an endpoint is a capability URL).
   */
  sent: z
    .array(
      z.object({
        id: EventIdSchema,
        devices: z
          .array(z.string().check(z.regex(/^[\w-]{1,64}$/)))
          .check(z.minLength(1), z.maxLength(RELAY_PROGRESS_LIMITS.devices)),
      }),
    )
    .check(z.maxLength(RELAY_PROGRESS_LIMITS.sent)),
});
export type RelayProgress = z.infer<typeof RelayProgress>;

/** What the lease row keeps of a progress report besides the cursor. */
export const RelayProgressParts = z.omit(RelayProgress, { cursor: true });

/** A relay's random id: 8 to 100 letters, digits, `_` or `-`. */
const RelayId = z.string().check(z.regex(/^[\w-]{8,100}$/));

/** `relay:lease`: see {@link RelayClientToServer}. */
export const RelayLeaseRequest = z.object({
  relayId: RelayId,
  ttlMs: z.number().check(z.int(), z.gte(0), z.lte(RELAY_LEASE_MAX_MS)),
});
export type RelayLeaseRequest = z.infer<typeof RelayLeaseRequest>;

/** `relay:cursor`: a progress report of the relay holding the lease, every id above the cursor. */
export const RelayCursorReport = z
  .extend(RelayProgress, { relayId: RelayId })
  .check(
    z.refine(
      (report) =>
        report.settled.every((id) => id > report.cursor) &&
        report.sent.every((entry) => entry.id > report.cursor),
    ),
  );
export type RelayCursorReport = z.infer<typeof RelayCursorReport>;

/**
 * The answer to `relay:lease`. Granted: this relay alone pushes until its lease runs out, going on
 * from `progress` (null: no relay has reported yet). Not granted: another relay holds it;
 * `retryInMs` is how long until that lease runs out unless renewed. With `error` (a malformed
 * request, a database failure) nothing is granted: ask again later.
 */
export const RelayLeaseAnswer = z.union([
  z.object({ granted: z.literal(true), progress: z.nullable(RelayProgress) }),
  z.object({ granted: z.literal(false), retryInMs: z.number(), error: z.optional(z.undefined()) }),
  z.object({ granted: z.literal(false), retryInMs: z.optional(z.undefined()), error: z.string() }),
]);
export type RelayLeaseAnswer = z.infer<typeof RelayLeaseAnswer>;

/**
 * The answer to `relay:cursor`. `leaseLost`: another relay holds the lease now, the report was not
 * kept, and this relay must stop pushing. Any other error: nothing was kept; report again later.
 */
export const RelayCursorAnswer = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string(), leaseLost: z.boolean() }),
]);
export type RelayCursorAnswer = z.infer<typeof RelayCursorAnswer>;

/** `relay:subscription-gone`: a device a push service called gone. */
export const RelayGoneRequest = z.object({
  endpoint: z.string().check(z.minLength(1), z.maxLength(PUSH_ENDPOINT_MAX_LENGTH)),
});
export type RelayGoneRequest = z.infer<typeof RelayGoneRequest>;

/** The acknowledgement of `relay:subscription-gone`: nothing, or `{ error }` when it was kept. */
export const RelayGoneAnswer = z.optional(z.object({ error: z.string() }));
export type RelayGoneAnswer = z.infer<typeof RelayGoneAnswer>;

export interface RelayClientToServer {
  /**
   * Everything after `after` (a payload id), oldest first, recomputed now (open tabs and devices as
   * they are at this moment). `after: null` (first start) answers no events, only `latest`.
   */
  'relay:catch-up': (
    request: RelayCatchUpRequest,
    reply: (answer: RelayCatchUpAnswer) => void,
  ) => void;
  /**
   * Takes or renews the lease that makes one relay of all those connected to any server node the
   * one that pushes. `relayId` is random per relay process; `ttlMs` is how long the lease lasts
   * from the moment the database grants it (0 gives it up when this relay holds it).
   */
  'relay:lease': (request: RelayLeaseRequest, reply: (answer: RelayLeaseAnswer) => void) => void;
  /** Keeps how far the holder of the lease got; refused when `relayId` does not hold it. */
  'relay:cursor': (report: RelayCursorReport, reply: (answer: RelayCursorAnswer) => void) => void;
  /** A push service answered 404/410: the device is gone. */
  'relay:subscription-gone': (
    request: RelayGoneRequest,
    ack: (result?: RelayGoneAnswer) => void,
  ) => void;
}
