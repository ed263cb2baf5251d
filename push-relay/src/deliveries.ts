import { type RelayEvent, RelayMembersGone, RelayPairBlocked } from '../../src/contracts/push.ts';
import type { DeliveryOutcome } from './deliver.ts';
import type { DevicePushes } from './devicePush.ts';
import { type ParsedEvent, distinctDevices } from './events.ts';
import { type EventLedger, deviceKey } from './ledger.ts';
import type { Logger } from './log.ts';
import { MEMBER_GONE, PAIR_BLOCKED, Withheld } from './withheld.ts';

export interface DeliveriesOptions {
  ledger: EventLedger;
  pushes: DevicePushes;
  log: Logger;
  /** The ledger changed: the server is to hear of it. */
  report(): void;
  settled(id: number, outcomes: DeliveryOutcome[]): void;
}

/**
 * The events under way: each is pushed to its devices once, settled in the ledger, or abandoned
 * when the lease goes (then catch-up brings it back, to this relay or the next holder).
 */
export class Deliveries {
  /** Aborted when this relay may push no more: deliveries under way make no further attempt. */
  #delivering = new AbortController();
  readonly #inFlight = new Map<number, Promise<boolean>>();
  /** Each event under way, with what stops it alone (its member's account was deleted). */
  readonly #underWay = new Map<number, { event: RelayEvent; stop: AbortController }>();
  readonly #withheld = new Withheld();
  readonly #o: DeliveriesOptions;

  constructor(options: DeliveriesOptions) {
    this.#o = options;
  }

  /**
   * Deliveries under way make no further attempt: answers how many were under way, 0 when they
   * were stopped already.
   */
  stop(reason: string): number {
    if (this.#delivering.signal.aborted) return 0;
    this.#delivering.abort(new Error(reason));
    return this.#inFlight.size;
  }

  /** Resolves once the requests under way end. */
  async ended(): Promise<void> {
    await Promise.allSettled(this.#inFlight.values());
  }

  /**
   * Ready to push again. What an earlier lease started makes no further attempt; its last requests
   * end first, so no device gets the same event from both.
   */
  async resume(): Promise<void> {
    if (!this.#delivering.signal.aborted) return;
    await this.ended();
    if (this.#delivering.signal.aborted) this.#delivering = new AbortController();
  }

  /**
   * Starts handling an event unless it is handled or under way, skipping devices that already
   * have it. Resolves true once it is settled, false when the lease or the relay stopped first.
   */
  handle(parsed: ParsedEvent): Promise<boolean> {
    const { ledger, log } = this.#o;
    if (!parsed.ok) {
      log.error({ id: parsed.id, problem: parsed.problem }, 'dropped an event that does not fit');
      if (parsed.id !== undefined && !ledger.has(parsed.id)) {
        ledger.begin(parsed.id);
        this.#settle(parsed.id, []);
      }
      return Promise.resolve(true);
    }
    const { event } = parsed;
    const id = event.payload.id;
    if (ledger.has(id)) {
      ledger.confirm(id);
      return this.#inFlight.get(id) ?? Promise.resolve(true);
    }
    ledger.begin(id);
    const dropped = this.#withheld.reason(event);
    if (dropped !== undefined) {
      log.info({ id }, `push dropped: ${dropped}`);
      this.#settle(id, []);
      return Promise.resolve(true);
    }
    const stop = new AbortController();
    const delivering = this.#delivering.signal;
    const signal = AbortSignal.any([delivering, stop.signal]);
    const devices = distinctDevices(event)
      .map((device) => ({ device, key: deviceKey(device.endpoint) }))
      .filter(({ key }) => !ledger.isDeviceDone(id, key));
    const work = Promise.allSettled(
      devices.map(async ({ device, key }) => {
        const outcome = await this.#o.pushes.push(event, device, signal);
        ledger.deviceDone(id, key);
        this.#o.report();
        return outcome;
      }),
    )
      .then((results) => {
        const outcomes = results.flatMap((result): DeliveryOutcome[] => {
          if (result.status === 'fulfilled') return [result.value];
          // Stopped for its members alone: settled, since no catch-up brings it back.
          if (stop.signal.aborted && !delivering.aborted) {
            const reason = (stop.signal.reason as Error).message;
            return [{ result: 'dropped', status: undefined, reason, attempts: 0 }];
          }
          return [];
        });
        if (outcomes.length < results.length) {
          ledger.abandon(id);
          return false;
        }
        this.#settle(id, outcomes);
        return true;
      })
      .finally(() => {
        this.#inFlight.delete(id);
        this.#underWay.delete(id);
      });
    this.#inFlight.set(id, work);
    this.#underWay.set(id, { event, stop });
    return work;
  }

  /** The server deleted these accounts: nothing more is pushed to them or about them. */
  membersGone(raw: unknown): string[] | undefined {
    const parsed = RelayMembersGone.safeParse(raw);
    if (!parsed.success) {
      this.#o.log.error('dropped a word of deleted accounts that does not fit');
      return undefined;
    }
    this.#withheld.membersGone(parsed.data.memberIds);
    this.#stopWithheld(MEMBER_GONE);
    return parsed.data.memberIds;
  }

  /** One of two members blocked the other: nothing written before is pushed between them. */
  pairBlocked(raw: unknown): [string, string] | undefined {
    const parsed = RelayPairBlocked.safeParse(raw);
    if (!parsed.success) {
      this.#o.log.error('dropped a word of a block that does not fit');
      return undefined;
    }
    this.#withheld.pairBlocked(parsed.data.memberIds, parsed.data.upTo);
    this.#stopWithheld(PAIR_BLOCKED);
    return parsed.data.memberIds;
  }

  #settle(id: number, outcomes: DeliveryOutcome[]): void {
    this.#o.ledger.settle(id);
    this.#o.report();
    this.#o.settled(id, outcomes);
  }

  /** Stops the deliveries under way that are now withheld for `reason`. */
  #stopWithheld(reason: string): void {
    let stopped = 0;
    for (const { event, stop } of this.#underWay.values()) {
      if (this.#withheld.reason(event) !== reason || stop.signal.aborted) continue;
      stop.abort(new Error(reason));
      stopped += 1;
    }
    if (stopped > 0) this.#o.log.info({ events: stopped }, `pushes stopped: ${reason}`);
  }
}
