import { RelayLeaseAnswer, type RelayProgress } from '../../src/contracts/push.ts';
import type { ServerChannel } from './channel.ts';
import type { Clock } from './clock.ts';
import { answerOf } from './events.ts';
import type { Logger } from './log.ts';

/**
 * Where a relay stands. `standby`: it pushes nothing new and asks for the lease when the holder's
 * would run out. `leader`: the server granted it the lease; it catches up, then pushes every event,
 * renewing the lease every third of its length. `handing-over`: it is stopping; what is under way
 * ends, the last progress is reported and the lease given up, so another relay goes on at once.
 */
export type LeaseState = 'standby' | 'leader' | 'handing-over';

/** What the relay does on each change of state. */
interface LeaseTransitions {
  /** standby → leader, with the progress the server keeps (null while no relay has reported). */
  lead(progress: RelayProgress | null): void;
  /** leader → standby, or the first word that another relay holds the lease. */
  standBy(reason: string, wasLeader: boolean): void;
  /** The lease is surely not this relay's any more: deliveries under way stop. */
  lapse(reason: string): void;
}

export interface LeaseOptions {
  relayId: string;
  /** How long the lease lasts; its holder renews it every third of that. */
  leaseMs: number;
  channel: ServerChannel;
  clock: Clock;
  log: Logger;
  on: LeaseTransitions;
}

/** A standby asks again this long after the holder's lease would run out. */
const TAKEOVER_MARGIN_MS = 50;
/** How long the hand-over waits for the server to take the lease back. */
export const HANDOVER_TIMEOUT_MS = 3_000;

/** The push lease as a state machine, driven by the server's answers and the clock. */
export class Lease {
  state: LeaseState = 'standby';
  /** Bumps on every connect, disconnect and change of state: work of an older turn stops. */
  turn = 0;
  /** Clock time until which the lease is surely this relay's (granted no earlier than asked); 0: not held. */
  #heldUntil = 0;
  #announced = false;
  #asking = false;
  #stopped = false;
  #cancelAsk = () => {};
  #cancelExpiry = () => {};
  readonly #o: LeaseOptions;

  constructor(options: LeaseOptions) {
    this.#o = options;
  }

  get held(): boolean {
    return this.#heldUntil > 0;
  }

  connected(): void {
    this.turn++;
    void this.ask();
  }

  disconnected(): void {
    this.turn++;
    this.#cancelAsk();
    if (this.state === 'leader') this.standBy('disconnected from the server');
  }

  /** Asks the server for the lease (or renews it) and moves on with its answer. */
  async ask(): Promise<void> {
    const { channel, clock, relayId, leaseMs, log } = this.#o;
    if (this.#asking || this.#stopped || !channel.connected) return;
    this.#asking = true;
    const askedAt = clock.now();
    let answer: RelayLeaseAnswer;
    try {
      answer = answerOf(
        RelayLeaseAnswer,
        await channel.ask('relay:lease', { relayId, ttlMs: leaseMs }, leaseMs),
        (problem) => ({ granted: false, error: `an answer that does not fit: ${problem}` }),
      );
    } catch {
      answer = { granted: false, error: 'the server did not answer' };
    } finally {
      this.#asking = false;
    }
    if (this.#stopped) return;
    if (answer.granted) {
      this.#holdUntil(askedAt + leaseMs);
      if (this.state !== 'leader' && channel.connected) this.#lead(answer.progress);
      this.#askLater(leaseMs / 3);
    } else if (answer.error !== undefined) {
      // Whether the lease is still this relay's is unknown: push nothing new until it is renewed.
      if (this.state === 'leader') this.standBy(`could not renew the lease: ${answer.error}`);
      else log.warn({ relayId, problem: answer.error }, 'could not ask for the push lease');
      this.#askLater(leaseMs / 3);
    } else {
      if (this.held) this.lapse('another relay holds the lease');
      else this.standBy('another relay holds the lease');
      this.#askLater(Math.min(answer.retryInMs + TAKEOVER_MARGIN_MS, leaseMs));
    }
  }

  /** → standby: nothing new is pushed; deliveries under way go on while the lease surely lasts. */
  standBy(reason: string): void {
    const wasLeader = this.state === 'leader';
    if (this.state !== 'handing-over') this.state = 'standby';
    const { log, relayId } = this.#o;
    if (wasLeader) {
      this.turn++;
      log[this.#stopped ? 'info' : 'warn']({ relayId, reason }, 'stopped pushing');
    } else if (this.#announced) return;
    else if (!this.#stopped) log.info({ relayId }, 'standing by: another relay sends the pushes');
    this.#announced = true;
    this.#o.on.standBy(reason, wasLeader);
  }

  /** The lease is surely gone (it ran out, or another relay holds it). */
  lapse(reason: string): void {
    this.#cancelExpiry();
    this.#heldUntil = 0;
    this.standBy(reason);
    this.#o.on.lapse(reason);
  }

  /**
   * → handing-over, for good: stops asking, lets `finish` end the work under way (and report, when
   * the lease was held), then gives the lease up when it was held.
   */
  async handOver(finish: (held: boolean) => Promise<void>): Promise<void> {
    const { channel, relayId } = this.#o;
    this.#stopped = true;
    this.#cancelAsk();
    this.#cancelExpiry();
    const held = this.held;
    this.standBy('the relay is stopping');
    this.state = 'handing-over';
    this.#heldUntil = 0;
    await finish(held);
    // Its server may be stopping too (npm start stops both): then the lease runs out instead.
    if (held && channel.connected)
      await channel
        .ask('relay:lease', { relayId, ttlMs: 0 }, HANDOVER_TIMEOUT_MS)
        .catch(() => undefined);
  }

  #lead(progress: RelayProgress | null): void {
    this.state = 'leader';
    this.#announced = true;
    this.turn++;
    this.#o.log.debug(
      { relayId: this.#o.relayId, cursor: progress?.cursor },
      'took the push lease',
    );
    this.#o.on.lead(progress);
  }

  #holdUntil(until: number): void {
    const { clock } = this.#o;
    this.#heldUntil = until;
    this.#cancelExpiry();
    this.#cancelExpiry = clock.after(Math.max(0, until - clock.now()), () =>
      this.lapse('the lease ran out before it could be renewed'),
    );
  }

  #askLater(ms: number): void {
    this.#cancelAsk();
    if (this.#o.channel.connected && !this.#stopped)
      this.#cancelAsk = this.#o.clock.after(ms, () => void this.ask());
  }
}
