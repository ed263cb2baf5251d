import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Namespace, Socket } from 'socket.io';
import type { Notification } from '../../../src/contracts/notifications.ts';
import {
  RELAY_LEASE_MAX_MS,
  RELAY_MEMBERS_GONE_MAX,
  RELAY_NAMESPACE,
  RelayCatchUpRequest,
  type RelayClientToServer,
  type RelayCursorAnswer,
  RelayCursorReport,
  type RelayEvent,
  RelayGoneRequest,
  type RelayHandshake,
  type RelayLeaseAnswer,
  RelayLeaseRequest,
  type RelayProgress,
  type RelayServerToClient,
} from '../../../src/contracts/push.ts';
import type { OrbitServer } from './realtime.ts';

type RelayNamespace = Namespace<RelayClientToServer, RelayServerToClient>;
type RelaySocket = Socket<RelayClientToServer, RelayServerToClient>;

const RELAY_ERRORS = {
  unauthorized: 'unauthorized',
  disabled: 'push is not configured on this server (RELAY_SECRET)',
  badKey: 'vapidPublicKey must be an uncompressed P-256 public key, base64url',
  badCatchUp: 'after must be null or a non-negative integer, limit a positive integer',
  badEndpoint: 'endpoint must be a non-empty string',
  badLease: `relayId must be 8 to 100 letters, digits, _ or -; ttlMs an integer from 0 to ${RELAY_LEASE_MAX_MS}`,
  badCursor:
    'relayId as for relay:lease, cursor a non-negative integer, settled and sent within their limits and above the cursor',
  notHolder: 'this relay does not hold the push lease; another relay pushes now',
  failed: 'the server could not answer; try again',
} as const;

/** How long the server waits for the relay to acknowledge an event before logging it. */
const EVENT_ACK_TIMEOUT_MS = 120_000;

export interface Relay {
  /** Hands a just-announced notification to the relay when it is a friend event. */
  notificationCreated(recipientId: string, notification: Notification): void;
  /**
   * Tells every relay, on every node, that these members' accounts are gone: pushes to them or
   * about them that are not delivered yet are dropped.
   */
  membersGone(userIds: readonly string[]): void;
  /**
   * Tells every relay, on every node, that one of these two blocked the other: pushes between
   * them for events written before that (`removedUpTo`: the newest event between them the block
   * removed) are dropped if not delivered yet.
   */
  pairBlocked(a: string, b: string, removedUpTo: number): void;
}

/**
 * What the relay namespace asks of the push data: its answers to the relays' calls, and the
 * events it sends them. The push feature hands it in.
 */
export interface RelayStore {
  /** Whether a key is an uncompressed P-256 public key, as VAPID uses. */
  isVapidKey(key: string): boolean;
  /** Remembers the key a relay brought; answers the key it replaced, if it differs. */
  rememberVapidKey(key: string): Promise<string | undefined>;
  /** Unread friend events after `after`, oldest first, and the newest notification id. */
  catchUp(after: number | null, limit: number): Promise<{ events: RelayEvent[]; latest: number }>;
  /** Forgets the device of a subscription its push service says is gone; true if one was. */
  subscriptionGone(endpoint: string): Promise<boolean>;
  /** Grants, renews or (`ttlMs` 0) gives up the push lease. */
  takeLease(relayId: string, ttlMs: number): Promise<LeaseOutcome>;
  /** Keeps the holder's progress; false when `relayId` does not hold the lease (any more). */
  reportProgress(relayId: string, progress: RelayProgress): Promise<boolean>;
  /** The relay event of a notification just announced, or null when it is not a friend event. */
  liveEvent(recipientId: string, notification: Notification): Promise<RelayEvent | null>;
  /** The newest notification id: every event written so far is at or below it. */
  latestEventId(): Promise<number>;
}

export type LeaseOutcome =
  | {
      granted: true;
      /** The relay did not hold the lease a moment ago (a first start or a takeover). */
      taken: boolean;
      progress: RelayProgress | null;
    }
  | { granted: false; retryInMs: number };

declare module 'fastify' {
  interface FastifyInstance {
    relay: Relay;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Compares in constant time, whatever the lengths. */
function sameSecret(given: unknown, expected: string): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(given), digest(expected));
}

/** Calls a client's acknowledgement only when it is one (anything can come off the wire). */
function answer(ack: unknown, ...value: unknown[]): void {
  if (typeof ack === 'function') (ack as (...value: unknown[]) => void)(...value);
}

/**
 * The `/relay` namespace: push-relay, and nothing else, connects here with the shared secret. It
 * receives friend events as they happen and asks for what it missed. Every relay of every node
 * receives every event; the lease in the database decides which one pushes. The members' middleware of
 * the default namespace does not run here (socket.io middleware belongs to one namespace).
 */
function registerRelay(
  app: FastifyInstance,
  io: OrbitServer,
  store: RelayStore,
  secret: string | undefined,
): Relay {
  const relay = io.of(RELAY_NAMESPACE) as unknown as RelayNamespace;

  relay.use((socket, next) => {
    // Each field is checked below, to answer which one is wrong.
    const { secret: given, vapidPublicKey } = (socket.handshake.auth ?? {}) as Partial<
      Record<keyof RelayHandshake, unknown>
    >;
    if (!secret) return next(new Error(RELAY_ERRORS.disabled));
    if (!sameSecret(given, secret)) {
      app.log.warn({ address: socket.handshake.address }, 'push relay refused: wrong secret');
      return next(new Error(RELAY_ERRORS.unauthorized));
    }
    if (typeof vapidPublicKey !== 'string' || !store.isVapidKey(vapidPublicKey))
      return next(new Error(RELAY_ERRORS.badKey));
    store.rememberVapidKey(vapidPublicKey).then(
      (replaced) => {
        if (replaced) app.log.warn('push relay brought a new VAPID key; devices will resubscribe');
        next();
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'could not store the push relay’s VAPID key');
        next(new Error(RELAY_ERRORS.failed));
      },
    );
  });

  relay.on('connection', (socket: RelaySocket) => {
    app.log.info({ relay: socket.id }, 'push relay connected');
    socket.on('relay:catch-up', (request, reply) => catchUp(request, reply));
    socket.on('relay:subscription-gone', (request, ack) => gone(request, ack));
    socket.on('relay:lease', (request, reply) => lease(socket, request, reply));
    socket.on('relay:cursor', (report, reply) => cursor(report, reply));
    socket.on('disconnect', (reason) =>
      app.log.info({ relay: socket.id, reason }, 'push relay disconnected'),
    );
  });

  const catchUp = (request: unknown, reply: unknown) => {
    const parsed = RelayCatchUpRequest.safeParse(request);
    if (!parsed.success) {
      answer(reply, { events: [], latest: 0, error: RELAY_ERRORS.badCatchUp });
      return;
    }
    store.catchUp(parsed.data.after, parsed.data.limit).then(
      (result) => answer(reply, result),
      (error: unknown) => {
        app.log.error({ err: error }, 'push relay catch-up failed');
        answer(reply, { events: [], latest: 0, error: RELAY_ERRORS.failed });
      },
    );
  };

  const gone = (request: unknown, ack: unknown) => {
    const parsed = RelayGoneRequest.safeParse(request);
    if (!parsed.success) {
      answer(ack, { error: RELAY_ERRORS.badEndpoint });
      return;
    }
    store.subscriptionGone(parsed.data.endpoint).then(
      (removed) => {
        if (removed) app.log.info('removed a push device its push service says is gone');
        answer(ack);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'could not remove a gone push device');
        answer(ack, { error: RELAY_ERRORS.failed });
      },
    );
  };

  const lease = (socket: RelaySocket, request: unknown, reply: unknown) => {
    const parsed = RelayLeaseRequest.safeParse(request);
    if (!parsed.success) {
      answer(reply, { granted: false, error: RELAY_ERRORS.badLease } satisfies RelayLeaseAnswer);
      return;
    }
    const { relayId, ttlMs } = parsed.data;
    store.takeLease(relayId, ttlMs).then(
      (outcome) => {
        if (outcome.granted && outcome.taken)
          app.log.info({ relay: socket.id, relayId }, 'push relay took the lease');
        answer(
          reply,
          (outcome.granted
            ? { granted: true, progress: outcome.progress }
            : { granted: false, retryInMs: outcome.retryInMs }) satisfies RelayLeaseAnswer,
        );
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'push relay lease failed');
        answer(reply, { granted: false, error: RELAY_ERRORS.failed } satisfies RelayLeaseAnswer);
      },
    );
  };

  const cursor = (report: unknown, reply: unknown) => {
    const parsed = RelayCursorReport.safeParse(report);
    if (!parsed.success) {
      answer(reply, {
        ok: false,
        error: RELAY_ERRORS.badCursor,
        leaseLost: false,
      } satisfies RelayCursorAnswer);
      return;
    }
    const { relayId, ...progress } = parsed.data;
    store.reportProgress(relayId, progress).then(
      (kept) =>
        answer(
          reply,
          (kept
            ? { ok: true }
            : {
                ok: false,
                error: RELAY_ERRORS.notHolder,
                leaseLost: true,
              }) satisfies RelayCursorAnswer,
        ),
      (error: unknown) => {
        app.log.error({ err: error }, 'could not keep the push relay’s cursor');
        answer(reply, {
          ok: false,
          error: RELAY_ERRORS.failed,
          leaseLost: false,
        } satisfies RelayCursorAnswer);
      },
    );
  };

  const send = (event: RelayEvent) => {
    relay.timeout(EVENT_ACK_TIMEOUT_MS).emit('relay:event', event, (error: Error | null) => {
      if (error) app.log.warn({ id: event.payload.id }, 'push relay did not acknowledge an event');
    });
  };

  // Events leave this process in the order their notifications were announced.
  let queue: Promise<void> = Promise.resolve();
  return {
    notificationCreated(recipientId, notification) {
      if (!secret) return;
      const event = store.liveEvent(recipientId, notification).catch((error: unknown) => {
        app.log.error({ err: error }, 'could not prepare a push relay event');
        return null;
      });
      queue = queue.then(async () => {
        const ready = await event;
        if (ready) send(ready);
      });
    },
    membersGone(userIds) {
      if (!secret) return;
      for (let start = 0; start < userIds.length; start += RELAY_MEMBERS_GONE_MAX) {
        const memberIds = userIds.slice(start, start + RELAY_MEMBERS_GONE_MAX);
        // After the events queued before it, so a relay never hears of an event after its member went.
        queue = queue.then(() => {
          relay.emit('relay:members-gone', { memberIds });
        });
      }
    },
    pairBlocked(a, b, removedUpTo) {
      if (!secret) return;
      // After the events queued before it. The newest id now covers an event between the two
      // whose notification went before the block (a declined request); the removed ones may be
      // newer than any id left.
      queue = queue.then(async () => {
        try {
          const upTo = Math.max(removedUpTo, await store.latestEventId());
          relay.emit('relay:pair-blocked', { memberIds: [a, b], upTo });
        } catch (error) {
          app.log.error({ err: error }, 'could not tell the push relay of a block');
        }
      });
    },
  };
}

/** The relay's namespace on the realtime server, answering from the push data handed in. */
export const relayPlugin = fp<{ store: RelayStore }>(
  (app, { store }, done) => {
    app.decorate('relay', registerRelay(app, app.realtime.io, store, app.config.relaySecret));
    done();
  },
  { name: 'orbit-relay', dependencies: ['orbit-realtime'] },
);
