import { EventEmitter } from 'node:events';
import type { RelayProgress } from '../../src/contracts/push.ts';
import type { PushEndpointPolicy } from '../../src/contracts/pushHosts.ts';
import type { Resolver } from './address.ts';
import type { BackoffPolicy } from './backoff.ts';
import type { Clock } from './clock.ts';
import type { RetryPolicy } from './config.ts';
import type { DeliveryOutcome } from './deliver.ts';
import type { LeaseState } from './lease.ts';
import type { Logger } from './log.ts';
import type { VapidKeys } from './vapid.ts';

// The relay as its callers see it: its settings, its events, and the running relay (relay.ts
// starts it).

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
  /** The timers' clock (tests move their own). */
  clock?: Clock;
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
  state(): LeaseState;
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

  /** standby, leader or handing-over (see lease.ts). */
  get state(): LeaseState {
    return this.#state.state();
  }

  /** Whether this relay holds the lease and pushes. */
  get leader(): boolean {
    return this.#state.state() === 'leader';
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
