import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as wait } from 'node:timers/promises';
import pLimit from 'p-limit';
import { type Socket, io } from 'socket.io-client';
import {
  PUSH_TTL_SECONDS,
  RELAY_NAMESPACE,
  type RelayClientToServer,
  RelayCursorAnswer,
  type RelayEvent,
  RelayGoneAnswer,
  type RelayHandshake,
  RelayLeaseAnswer,
  RelayMembersGone,
  RelayPairBlocked,
  type RelayProgress,
  type RelayServerToClient,
} from '../../src/contracts/push.ts';
import { pairKey } from '../../src/contracts/friends.ts';
import {
  DEFAULT_PUSH_ENDPOINT_POLICY,
  type PushEndpointPolicy,
} from '../../src/contracts/pushHosts.ts';
import { type Resolver, endpointRefusal, pushAgent } from './address.ts';
import { type BackoffPolicy, DEFAULT_BACKOFF, EndpointBackoff } from './backoff.ts';
import type { RetryPolicy } from './config.ts';
import { CursorFile, EventLedger, deviceKey } from './cursor.ts';
import { type DeliveryOutcome, type PushSender, VapidAuthorization, deliver } from './deliver.ts';
import {
  CatchUpPageSchema,
  type ParsedEvent,
  answerOf,
  distinctDevices,
  eventIdOf,
  parseEvent,
  serviceOf,
} from './events.ts';
import { type HealthServer, startHealthServer } from './health.ts';
import { relayMetrics } from './metrics.ts';
import { type Logger, createLogger } from './log.ts';
import { type VapidKeys, loadVapidKeys } from './vapid.ts';

export interface RelayConfig {
  serverUrl: string;
  secret: string;
  dataDir: string;
  /** Without keys the relay keeps its own pair in `dataDir`. */
  vapidKeys?: VapidKeys | undefined;
  vapidSubject: string;
  health?: { port: number; host: string } | undefined;
  ttlSeconds?: number;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** How long the push lease lasts; its holder renews it every third of that. */
  leaseMs?: number;
  logger?: Logger;
  /** A certificate authority to trust for push services besides the usual ones (tests). */
  trustedCa?: string | Buffer;
  /** Which endpoints it pushes to; by default only the browsers' push services. */
  endpoints?: PushEndpointPolicy;
  /** How push service names are looked up (the system's DNS unless a test says otherwise). */
  resolve?: Resolver;
  /** How long a failing endpoint rests (backoff.ts). */
  backoff?: Partial<BackoffPolicy>;
}

export interface RelayEvents {
  connected: [];
  disconnected: [reason: string];
  /** The server refused the handshake (a wrong RELAY_SECRET). */
  refused: [message: string];
  /** This relay holds the lease: it catches up, then pushes every event. */
  leading: [];
  /** This relay pushes nothing new: another relay holds the lease, or this one lost it. */
  standby: [reason: string];
  /** Catch-up after taking the lease is answered; live events flow from here on. */
  'caught-up': [cursor: number | null];
  settled: [result: { id: number; outcomes: DeliveryOutcome[] }];
  /** A live event acknowledged without pushing it, while standing by. */
  'left-to-holder': [id: number | undefined];
  /** The server said these members' accounts are gone; their pushes not delivered yet were dropped. */
  'members-gone': [memberIds: string[]];
  /** The server said one of these two blocked the other; their pushes not delivered yet were dropped. */
  'pair-blocked': [memberIds: [string, string]];
  /** The server kept this progress with the lease. */
  reported: [progress: RelayProgress];
  /** close() finished: nothing is under way, the progress is reported and the lease given up. */
  closed: [];
}

interface RelayState {
  connected(): boolean;
  leader(): boolean;
  lastEventId(): number | null;
  healthUrl(): string | undefined;
  close(): Promise<void>;
}

/** A running relay: its state, its events, and how to stop it. */
export class Relay extends EventEmitter<RelayEvents> {
  readonly #state: RelayState;

  constructor(
    readonly vapidPublicKey: string,
    /** Random per process: the holder's name in the lease and in the logs. */
    readonly relayId: string,
    state: RelayState,
  ) {
    super();
    this.#state = state;
  }

  get connected(): boolean {
    return this.#state.connected();
  }

  /** Whether this relay holds the lease and pushes. */
  get leader(): boolean {
    return this.#state.leader();
  }

  /** The cursor: every event up to this id is handled (as of this relay's last lease). */
  get lastEventId(): number | null {
    return this.#state.lastEventId();
  }

  /** The health endpoint's address, when one is configured. */
  get healthUrl(): string | undefined {
    return this.#state.healthUrl();
  }

  /**
   * Stops: deliveries under way end, their events stay unsettled, and the lease is given up with
   * the last progress, so another relay takes over at once and sends them.
   */
  async close(): Promise<void> {
    await this.#state.close();
    this.emit('closed');
  }
}

const DEFAULT_LEASE_MS = 10_000;
/** Catch-up asks for pages of this many events, waits this long for each, asks again after this. */
const CATCH_UP = { page: 100, timeoutMs: 30_000, retryMs: 5_000 };
const GONE_ACK_TIMEOUT_MS = 10_000;
const PUSH_REQUEST_TIMEOUT_MS = 15_000;
const REPORT_TIMEOUT_MS = 10_000;
const REPORT_RETRY_MS = 1_000;
/** How long close() waits to hand over the last report and the lease. */
const HANDOVER_TIMEOUT_MS = 3_000;
/** A standby asks again this long after the holder's lease would run out. */
const TAKEOVER_MARGIN_MS = 50;
/** After a refused handshake, how long before asking again (the secret may be fixed meanwhile). */
const REFUSED_RETRY_MS = 30_000;
/**
 * Started beside the server (`npm start`), the relay usually tries before the server listens; a
 * server still missing this long after the relay started is worth a warning.
 */
const START_GRACE_MS = 10_000;

type RelaySocket = Socket<RelayServerToClient, RelayClientToServer>;

/** Endpoints refused lately, each logged at warn once; forgotten past this many. */
const REFUSED_REMEMBERED = 10_000;
/**
 * Deleted members remembered, so that an event about one that arrives after the word (from
 * another node) is dropped too; the oldest are forgotten past this many. Catch-up never brings
 * such an event: the server deleted its notification with the account.
 */
const GONE_REMEMBERED = 10_000;

/**
 * Blocks remembered, so that an event between the two written before the block that reaches the
 * relay after the word (from another node, or held while catching up) is dropped too; the oldest
 * are forgotten past this many. Catch-up never brings such an event: the block deleted its
 * notification.
 */
const BLOCKS_REMEMBERED = 10_000;

/** A push not delivered because its recipient's or sender's account was deleted meanwhile. */
const MEMBER_GONE = 'the member’s account was deleted';
/** A push not delivered because one of the two blocked the other meanwhile. */
const PAIR_BLOCKED = 'one of the two members blocked the other';

/** Calls an acknowledgement the server asked for (a missing or odd one is ignored). */
function acknowledge(ack: unknown): void {
  if (typeof ack === 'function') (ack as () => void)();
}

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Connects to the server's `/relay` namespace and turns its friend events into Web Push. Every
 * relay of every node receives every event; only the one holding the lease pushes, going on from
 * the progress the server keeps with the lease. The others acknowledge events and ask for the
 * lease again when the holder's would run out. Resolves once the keys are loaded; the connection
 * itself is retried for as long as the relay runs.
 */
export async function startRelay(config: RelayConfig): Promise<Relay> {
  const log = config.logger ?? createLogger('silent');
  const vapid = await loadVapidKeys(config.vapidKeys, config.dataDir);
  if (vapid.source === 'generated')
    log.info({ file: vapid.file }, 'generated a VAPID key pair and saved it');
  const legacyFile = new CursorFile(config.dataDir);
  const legacyCursor = await legacyFile.read();
  const relayId = randomUUID();
  const leaseMs = config.leaseMs ?? DEFAULT_LEASE_MS;
  const ledger = new EventLedger(null);
  const concurrency = config.concurrency ?? 50;
  const endpoints = config.endpoints ?? DEFAULT_PUSH_ENDPOINT_POLICY;
  if (endpoints.allowLocal)
    log.warn('PUSH_ALLOW_LOCAL_SERVICE is on: pushes may go to this machine (tests only)');
  const backoff = new EndpointBackoff({ ...DEFAULT_BACKOFF, ...config.backoff });
  const refused = new Set<string>();
  const sender: PushSender = {
    vapid: new VapidAuthorization({ ...vapid.keys, subject: config.vapidSubject }),
    ttlSeconds: config.ttlSeconds ?? PUSH_TTL_SECONDS,
    agent: pushAgent({
      concurrency,
      endpoints,
      resolve: config.resolve,
      trustedCa: config.trustedCa,
    }),
    limiter: pLimit(concurrency),
    retry: { maxAttempts: 5, baseMs: 1_000, budgetMs: 5 * 60_000, ...config.retry },
    timeoutMs: PUSH_REQUEST_TIMEOUT_MS,
  };
  const stopping = new AbortController();
  /** Aborted when this relay may push no more: deliveries under way make no further attempt. */
  let delivering = new AbortController();
  const inFlight = new Map<number, Promise<boolean>>();
  /** Each event under way, with what stops it alone (its member's account was deleted). */
  const underWay = new Map<number, { event: RelayEvent; stop: AbortController }>();
  const goneMembers = new Set<string>();
  /** Pairs blocked lately (pair key → the newest event id when the block was written). */
  const blockedPairs = new Map<string, number>();
  /** Why this event is not to be pushed any more, if it is not. */
  const voided = (event: RelayEvent): string | undefined => {
    if (goneMembers.has(event.recipientId) || goneMembers.has(event.payload.actor.id))
      return MEMBER_GONE;
    const upTo = blockedPairs.get(pairKey(event.recipientId, event.payload.actor.id));
    return upTo !== undefined && event.payload.id <= upTo ? PAIR_BLOCKED : undefined;
  };
  let role: 'none' | 'leader' | 'standby' = 'none';
  /**
   * performance.now() until which the lease is surely this relay's: the database granted it for
   * `leaseMs` no earlier than the relay asked, so nobody else can hold it before then. 0: not held.
   */
  let heldUntil = 0;
  /** Bumps on every connect, disconnect and change of role; a catch-up of an older one stops. */
  let epoch = 0;
  let catchingUp = false;
  let buffered: [unknown, unknown][] = [];
  let asking = false;
  let leaseTimer: NodeJS.Timeout | undefined;
  let expiryTimer: NodeJS.Timeout | undefined;
  let refusedTimer: NodeJS.Timeout | undefined;
  let reachable = true;
  const startedAt = performance.now();
  let everConnected = false;
  let reportWanted = false;
  let reporting: Promise<void> | undefined;

  let health: HealthServer | undefined;
  const relay = new Relay(vapid.keys.publicKey, relayId, {
    connected: () => socket.connected,
    leader: () => role === 'leader',
    lastEventId: () => ledger.cursor,
    healthUrl: () => health?.url,
    async close() {
      stopping.abort(new Error('the relay is stopping'));
      for (const timer of [refusedTimer, leaseTimer, expiryTimer]) clearTimeout(timer);
      const held = heldUntil > 0;
      standBy('the relay is stopping');
      delivering.abort(new Error('the relay is stopping'));
      await Promise.allSettled(inFlight.values());
      if (held && socket.connected) {
        // Hands over: the last progress, then the lease, so another relay goes on at once.
        report();
        await within(reporting ?? Promise.resolve(), HANDOVER_TIMEOUT_MS);
        // Its server may be stopping too (npm start stops both): then the lease runs out instead.
        if (socket.connected)
          await within(
            socket.timeout(HANDOVER_TIMEOUT_MS).emitWithAck('relay:lease', { relayId, ttlMs: 0 }),
            HANDOVER_TIMEOUT_MS,
          );
      }
      socket.disconnect();
      await health?.close();
      sender.agent.destroy();
    },
  });

  const socket: RelaySocket = io(`${config.serverUrl}${RELAY_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { secret: config.secret, vapidPublicKey: vapid.keys.publicKey } satisfies RelayHandshake,
    reconnectionDelay: 500,
    reconnectionDelayMax: 10_000,
    forceNew: true,
  });

  // ─── Progress reports ──────────────────────────────────────────────────────────────────────────

  /** Sends the newest progress until the server has it; a burst of changes costs one report. */
  const drainReports = async () => {
    while (reportWanted && socket.connected) {
      reportWanted = false;
      const progress = ledger.progress();
      if (!progress) return;
      let answer: RelayCursorAnswer;
      try {
        answer = answerOf(
          RelayCursorAnswer,
          await socket
            .timeout(REPORT_TIMEOUT_MS)
            .emitWithAck('relay:cursor', { relayId, ...progress }),
          (problem) => ({
            ok: false,
            error: `an answer that does not fit: ${problem}`,
            leaseLost: false,
          }),
        );
      } catch {
        answer = { ok: false, error: 'the server did not answer', leaseLost: false };
      }
      if (answer.ok) {
        relay.emit('reported', progress);
        continue;
      }
      if (answer.leaseLost) {
        lapse('another relay holds the lease');
        return;
      }
      if (stopping.signal.aborted || !socket.connected) {
        // The next connection's lease reports again; a relay stopping has nobody to tell.
        reportWanted = true;
        return;
      }
      log.warn(
        { relayId, problem: answer.error },
        `the server did not keep the progress; reporting again in ${REPORT_RETRY_MS / 1000} s`,
      );
      reportWanted = true;
      await new Promise((resolve) => setTimeout(resolve, REPORT_RETRY_MS));
    }
  };

  const report = () => {
    reportWanted = true;
    // Waits a turn, so a device finishing and its event settling make one report.
    reporting ??= new Promise((resolve) => setImmediate(resolve)).then(drainReports).finally(() => {
      reporting = undefined;
    });
  };

  // ─── Deliveries ────────────────────────────────────────────────────────────────────────────────

  const settle = (id: number, outcomes: DeliveryOutcome[]) => {
    ledger.settle(id);
    report();
    relay.emit('settled', { id, outcomes });
  };

  const reportGone = async (endpoint: string) => {
    const service = serviceOf(endpoint);
    try {
      // The server acknowledges with nothing, or with { error } when it could not delete.
      const answer = answerOf(
        RelayGoneAnswer,
        await socket
          .timeout(GONE_ACK_TIMEOUT_MS)
          .emitWithAck('relay:subscription-gone', { endpoint }),
        (problem) => ({ error: `an answer that does not fit: ${problem}` }),
      );
      if (answer?.error)
        log.warn({ service, problem: answer.error }, 'the server kept a gone subscription');
    } catch {
      log.warn({ service }, 'the server did not confirm a gone subscription');
    }
  };

  /**
   * An endpoint Orbit does not push to (address.ts): dropped, and the server forgets it as it
   * does a gone one. Logged at warn once per endpoint.
   */
  const refuse = async (id: number, endpoint: string, reason: string): Promise<DeliveryOutcome> => {
    const key = deviceKey(endpoint);
    const service = serviceOf(endpoint);
    if (refused.has(key)) log.debug({ id, service, reason }, 'push refused');
    else {
      if (refused.size >= REFUSED_REMEMBERED) refused.clear();
      refused.add(key);
      log.warn(
        { id, service, reason },
        'push refused: not a push service Orbit sends to; telling the server',
      );
    }
    backoff.succeeded(key);
    await reportGone(endpoint);
    return { result: 'dropped', status: undefined, reason, attempts: 0, refused: true };
  };

  const pushToDevice = async (
    event: RelayEvent,
    device: RelayEvent['subscriptions'][number],
    signal: AbortSignal,
  ): Promise<DeliveryOutcome> => {
    const id = event.payload.id;
    const service = serviceOf(device.endpoint);
    const refusal = endpointRefusal(device.endpoint, endpoints);
    if (refusal !== undefined) return refuse(id, device.endpoint, refusal);
    const key = deviceKey(device.endpoint);
    const resting = backoff.waitFor(key);
    if (resting > 0) {
      log.debug(
        { id, service, waitMs: Math.round(resting) },
        'push skipped: the endpoint failed lately',
      );
      return {
        result: 'dropped',
        status: undefined,
        reason: 'the endpoint failed lately',
        attempts: 0,
        backingOff: true,
      };
    }
    let retrying = false;
    let outcome: DeliveryOutcome;
    try {
      outcome = await deliver(sender, device, event.payload, signal, (retry) => {
        if (!retrying) backoff.retrying(key);
        retrying = true;
        log.info({ id, service, ...retry }, 'push not accepted yet; retrying');
      });
    } finally {
      if (retrying) backoff.doneRetrying(key);
    }
    if (outcome.result === 'dropped' && outcome.refused)
      return refuse(id, device.endpoint, outcome.reason);
    if (outcome.result === 'failed') {
      const waitMs = backoff.failed(key);
      log.warn({ id, service, ...outcome, waitMs }, 'push failed; resting the endpoint');
      return outcome;
    }
    backoff.succeeded(key);
    if (outcome.result === 'sent') log.debug({ id, service }, 'push sent');
    else if (outcome.result === 'gone') {
      log.info({ id, service, status: outcome.status }, 'subscription gone; telling the server');
      await reportGone(device.endpoint);
    } else log.warn({ id, service, ...outcome }, `push ${outcome.result}`);
    return outcome;
  };

  /**
   * Starts handling an event unless it is handled or under way, skipping devices that already
   * have it. Resolves true once it is settled, false when the lease or the relay stopped first
   * (then it comes back with the next catch-up, of this relay or the next holder).
   */
  const handle = (parsed: ParsedEvent): Promise<boolean> => {
    if (!parsed.ok) {
      log.error({ id: parsed.id, problem: parsed.problem }, 'dropped an event that does not fit');
      if (parsed.id !== undefined && !ledger.has(parsed.id)) {
        ledger.begin(parsed.id);
        settle(parsed.id, []);
      }
      return Promise.resolve(true);
    }
    const { event } = parsed;
    const id = event.payload.id;
    if (ledger.has(id)) {
      ledger.confirm(id);
      return inFlight.get(id) ?? Promise.resolve(true);
    }
    ledger.begin(id);
    const dropped = voided(event);
    if (dropped !== undefined) {
      log.info({ id }, `push dropped: ${dropped}`);
      settle(id, []);
      return Promise.resolve(true);
    }
    const stop = new AbortController();
    const signal = AbortSignal.any([delivering.signal, stop.signal]);
    const devices = distinctDevices(event)
      .map((device) => ({ device, key: deviceKey(device.endpoint) }))
      .filter(({ key }) => !ledger.isDeviceDone(id, key));
    const work = Promise.allSettled(
      devices.map(async ({ device, key }) => {
        const outcome = await pushToDevice(event, device, signal);
        ledger.deviceDone(id, key);
        report();
        return outcome;
      }),
    )
      .then((results) => {
        const outcomes = results.flatMap((result): DeliveryOutcome[] => {
          if (result.status === 'fulfilled') return [result.value];
          // Stopped for its members alone: settled, since no catch-up brings it back.
          if (stop.signal.aborted && !delivering.signal.aborted) {
            const reason = (stop.signal.reason as Error).message;
            return [{ result: 'dropped', status: undefined, reason, attempts: 0 }];
          }
          return [];
        });
        if (outcomes.length < results.length) {
          ledger.abandon(id);
          return false;
        }
        settle(id, outcomes);
        return true;
      })
      .finally(() => {
        inFlight.delete(id);
        underWay.delete(id);
      });
    inFlight.set(id, work);
    underWay.set(id, { event, stop });
    return work;
  };

  /** The server deleted these accounts: nothing more is pushed to them or about them. */
  const onMembersGone = (raw: unknown) => {
    const parsed = RelayMembersGone.safeParse(raw);
    if (!parsed.success) {
      log.error('dropped a word of deleted accounts that does not fit');
      return;
    }
    for (const memberId of parsed.data.memberIds) {
      goneMembers.delete(memberId);
      goneMembers.add(memberId);
    }
    for (const memberId of goneMembers) {
      if (goneMembers.size <= GONE_REMEMBERED) break;
      goneMembers.delete(memberId);
    }
    stopVoided(MEMBER_GONE);
    relay.emit('members-gone', parsed.data.memberIds);
  };

  /** One of two members blocked the other: nothing written before is pushed between them. */
  const onPairBlocked = (raw: unknown) => {
    const parsed = RelayPairBlocked.safeParse(raw);
    if (!parsed.success) {
      log.error('dropped a word of a block that does not fit');
      return;
    }
    const key = pairKey(...parsed.data.memberIds);
    const upTo = Math.max(parsed.data.upTo, blockedPairs.get(key) ?? 0);
    blockedPairs.delete(key);
    blockedPairs.set(key, upTo);
    for (const oldest of blockedPairs.keys()) {
      if (blockedPairs.size <= BLOCKS_REMEMBERED) break;
      blockedPairs.delete(oldest);
    }
    stopVoided(PAIR_BLOCKED);
    relay.emit('pair-blocked', parsed.data.memberIds);
  };

  /** Stops the deliveries under way that {@link voided} now turns down for `reason`. */
  const stopVoided = (reason: string) => {
    let stopped = 0;
    for (const { event, stop } of underWay.values()) {
      if (voided(event) !== reason || stop.signal.aborted) continue;
      stop.abort(new Error(reason));
      stopped += 1;
    }
    if (stopped > 0) log.info({ events: stopped }, `pushes stopped: ${reason}`);
  };

  const onLiveEvent = (raw: unknown, ack: unknown) => {
    // A standby leaves the event to the holder; should it take over first, catch-up brings it.
    if (role !== 'leader') {
      acknowledge(ack);
      relay.emit('left-to-holder', eventIdOf(parseEvent(raw)));
    } else if (catchingUp) buffered.push([raw, ack]);
    else
      void handle(parseEvent(raw)).then((settled) => {
        if (settled) acknowledge(ack);
      });
  };

  // ─── Catch-up ──────────────────────────────────────────────────────────────────────────────────

  /** One page of catch-up; throws when the server does not answer or answers an error. */
  const askCatchUp = async (after: number | null) => {
    const answer = answerOf(
      CatchUpPageSchema,
      await socket
        .timeout(CATCH_UP.timeoutMs)
        .emitWithAck('relay:catch-up', { after, limit: CATCH_UP.page }),
      (problem) => ({ events: [], latest: 0, error: `an answer that does not fit: ${problem}` }),
    );
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer;
  };

  /**
   * Everything after the cursor, a page at a time. Pages are not held up by slow deliveries (a
   * push service asking to retry later): the cursor waits for them, the next page does not.
   */
  const catchUpPages = async (current: number) => {
    let after = ledger.cursor;
    while (current === epoch) {
      const answer = await askCatchUp(after);
      if (current !== epoch) return;
      if (after === null) {
        log.info({ latest: answer.latest }, 'first start: pushing events from now on');
        ledger.reset(answer.latest);
        report();
        return;
      }
      if (answer.latest < after) {
        log.warn(
          { cursor: after, latest: answer.latest },
          'the server has fewer events than the cursor (a new database?); starting from its newest',
        );
        ledger.startOver(answer.latest);
        report();
        return;
      }
      const events = answer.events
        .map(parseEvent)
        .sort((a, b) => (eventIdOf(a) ?? -1) - (eventIdOf(b) ?? -1));
      if (events.length > 0) log.info({ after, count: events.length }, 'catching up');
      for (const event of events) void handle(event);
      // Sorted, so the last event has the highest id there is.
      const last = events.map(eventIdOf).at(-1);
      if (events.length < CATCH_UP.page || last === undefined) return;
      after = last;
    }
  };

  /** Catch-up on taking the lease, retried while it lasts; live events wait until it is done. */
  const catchUp = async (current: number) => {
    for (;;) {
      try {
        await catchUpPages(current);
        break;
      } catch (error) {
        if (current !== epoch || stopping.signal.aborted) return;
        log.warn({ err: error }, `catch-up failed; asking again in ${CATCH_UP.retryMs / 1000} s`);
        await wait(CATCH_UP.retryMs, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
    if (current !== epoch) return;
    catchingUp = false;
    log.info({ cursor: ledger.cursor }, 'caught up');
    relay.emit('caught-up', ledger.cursor);
    const waiting = buffered;
    buffered = [];
    for (const [raw, ack] of waiting) onLiveEvent(raw, ack);
  };

  // ─── The lease ─────────────────────────────────────────────────────────────────────────────────

  /** Pushes nothing new from here on; deliveries under way go on while the lease surely lasts. */
  const standBy = (reason: string) => {
    const was = role;
    role = 'standby';
    if (was === 'leader') {
      epoch++;
      catchingUp = false;
      for (const [, ack] of buffered) acknowledge(ack);
      buffered = [];
      log[stopping.signal.aborted ? 'info' : 'warn']({ relayId, reason }, 'stopped pushing');
    } else if (was === 'none' && !stopping.signal.aborted)
      log.info({ relayId, reason }, 'standing by');
    if (was !== 'standby') relay.emit('standby', reason);
  };

  /** The lease is surely gone: deliveries under way make no further attempt. */
  const lapse = (reason: string) => {
    clearTimeout(expiryTimer);
    heldUntil = 0;
    standBy(reason);
    if (delivering.signal.aborted) return;
    if (inFlight.size > 0)
      log.warn(
        { relayId, events: inFlight.size },
        'stopped the pushes under way; whoever holds the lease next sends what they missed',
      );
    delivering.abort(new Error(reason));
  };

  const holdUntil = (until: number) => {
    heldUntil = until;
    clearTimeout(expiryTimer);
    expiryTimer = setTimeout(
      () => lapse('the lease ran out before it could be renewed'),
      Math.max(0, until - performance.now()),
    );
  };

  const lead = async (progress: RelayProgress | null) => {
    role = 'leader';
    epoch++;
    const current = epoch;
    catchingUp = true;
    buffered = [];
    log.info({ relayId, cursor: progress?.cursor ?? ledger.cursor }, 'took the push lease');
    relay.emit('leading');
    if (delivering.signal.aborted) {
      // What an earlier lease started makes no further attempt; its last requests end first, so
      // no device gets the same event from both.
      await Promise.allSettled(inFlight.values());
      if (current !== epoch) return;
      delivering = new AbortController();
    }
    if (progress) ledger.adopt(progress);
    else if (ledger.cursor === null && legacyCursor !== null) {
      log.info(
        { cursor: legacyCursor, file: legacyFile.file },
        'no relay has reported to the server yet: going on from the local cursor file',
      );
      ledger.reset(legacyCursor);
    }
    report();
    await catchUp(current);
  };

  const askLeaseLater = (ms: number) => {
    clearTimeout(leaseTimer);
    if (socket.connected && !stopping.signal.aborted)
      leaseTimer = setTimeout(() => void askLease(), ms);
  };

  const askLease = async () => {
    if (asking || stopping.signal.aborted || !socket.connected) return;
    asking = true;
    const askedAt = performance.now();
    let answer: RelayLeaseAnswer;
    try {
      answer = answerOf(
        RelayLeaseAnswer,
        await socket.timeout(leaseMs).emitWithAck('relay:lease', { relayId, ttlMs: leaseMs }),
        (problem) => ({ granted: false, error: `an answer that does not fit: ${problem}` }),
      );
    } catch {
      answer = { granted: false, error: 'the server did not answer' };
    } finally {
      asking = false;
    }
    if (stopping.signal.aborted) return;
    if (answer.granted) {
      holdUntil(askedAt + leaseMs);
      if (role !== 'leader' && socket.connected) void lead(answer.progress);
      askLeaseLater(leaseMs / 3);
    } else if (answer.error !== undefined) {
      // Whether the lease is still this relay's is unknown: push nothing new until it is renewed.
      if (role === 'leader') standBy(`could not renew the lease: ${answer.error}`);
      else log.warn({ relayId, problem: answer.error }, 'could not ask for the push lease');
      askLeaseLater(leaseMs / 3);
    } else {
      if (heldUntil > 0) lapse('another relay holds the lease');
      else standBy('another relay holds the lease');
      askLeaseLater(Math.min(answer.retryInMs + TAKEOVER_MARGIN_MS, leaseMs));
    }
  };

  // ─── The connection ────────────────────────────────────────────────────────────────────────────

  socket.on('connect', () => {
    epoch++;
    reachable = true;
    everConnected = true;
    log.info(
      { server: config.serverUrl, relayId, cursor: ledger.cursor },
      'connected to the server',
    );
    relay.emit('connected');
    void askLease();
  });
  socket.on('disconnect', (reason) => {
    epoch++;
    clearTimeout(leaseTimer);
    log[reason === 'io client disconnect' ? 'info' : 'warn'](
      { server: config.serverUrl, reason },
      'disconnected from the server',
    );
    if (role === 'leader') standBy('disconnected from the server');
    relay.emit('disconnected', reason);
    if (reason === 'io server disconnect' && !stopping.signal.aborted) socket.connect();
  });
  socket.on('connect_error', (error) => {
    if (socket.active) {
      // Once per outage at warn; every further attempt only at debug. A server still starting
      // is no outage.
      const starting = !everConnected && performance.now() - startedAt < START_GRACE_MS;
      if (starting) {
        log.debug({ server: config.serverUrl, err: error }, 'waiting for the server to start');
        return;
      }
      log[reachable ? 'warn' : 'debug'](
        { server: config.serverUrl, err: error },
        'cannot reach the server; retrying',
      );
      reachable = false;
      return;
    }
    log.error(
      { server: config.serverUrl, err: error },
      `the server refused the relay (check RELAY_SECRET); trying again in ${REFUSED_RETRY_MS / 1000} s`,
    );
    relay.emit('refused', error.message);
    refusedTimer = setTimeout(() => socket.connect(), REFUSED_RETRY_MS);
  });
  socket.on('relay:event', onLiveEvent);
  socket.on('relay:members-gone', onMembersGone);
  socket.on('relay:pair-blocked', onPairBlocked);

  if (config.health) {
    const state = () => ({
      connected: socket.connected,
      leader: role === 'leader',
      lastEventId: ledger.cursor,
    });
    const metrics = relayMetrics(state);
    relay.on('settled', ({ outcomes }) => metrics.delivered(outcomes));
    health = await startHealthServer(config.health, state, () => metrics.render());
  }
  return relay;
}
