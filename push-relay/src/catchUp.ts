import type { ServerChannel } from './channel.ts';
import { acknowledge } from './channel.ts';
import type { Clock } from './clock.ts';
import { CatchUpPageSchema, type ParsedEvent, answerOf, eventIdOf, parseEvent } from './events.ts';
import type { EventLedger } from './ledger.ts';
import type { Logger } from './log.ts';

/** Catch-up asks for pages of this many events, waits this long for each, asks again after this. */
export const CATCH_UP = { page: 100, timeoutMs: 30_000, retryMs: 5_000 };

export interface CatchUpOptions {
  ledger: EventLedger;
  channel: ServerChannel;
  clock: Clock;
  log: Logger;
  /** Aborted when the relay stops. */
  stopping: AbortSignal;
  /** The lease's turn now: a catch-up begun in an older one stops. */
  turn(): number;
  handle(event: ParsedEvent): void;
  /** The ledger's cursor moved: the server is to hear of it. */
  report(): void;
  /** Done: live events flow from here on, starting with those held meanwhile. */
  caughtUp(cursor: number | null, held: [raw: unknown, ack: unknown][]): void;
}

/**
 * What a new holder of the lease does first: everything after the cursor, a page at a time, while
 * live events wait. Pages are not held up by slow deliveries (a push service asking to retry
 * later): the cursor waits for them, the next page does not.
 */
export class CatchUp {
  #active = false;
  #held: [unknown, unknown][] = [];
  readonly #o: CatchUpOptions;

  constructor(options: CatchUpOptions) {
    this.#o = options;
  }

  /** Whether live events wait (with {@link hold}) for catch-up to finish. */
  get active(): boolean {
    return this.#active;
  }

  begin(): void {
    this.#active = true;
    this.#held = [];
  }

  hold(raw: unknown, ack: unknown): void {
    this.#held.push([raw, ack]);
  }

  /** The lease went: the events held are acknowledged and left to the next holder's catch-up. */
  drop(): void {
    this.#active = false;
    for (const [, ack] of this.#held) acknowledge(ack);
    this.#held = [];
  }

  /** Catches up, asking again while the lease lasts when the server fails to answer. */
  async run(turn: number): Promise<void> {
    const { log, clock, stopping, ledger } = this.#o;
    for (;;) {
      try {
        await this.#pages(turn);
        break;
      } catch (error) {
        if (turn !== this.#o.turn() || stopping.aborted) return;
        log.warn({ err: error }, `catch-up failed; asking again in ${CATCH_UP.retryMs / 1000} s`);
        await clock.sleep(CATCH_UP.retryMs, stopping);
      }
    }
    if (turn !== this.#o.turn()) return;
    this.#active = false;
    const held = this.#held;
    this.#held = [];
    log.debug({ cursor: ledger.cursor }, 'caught up');
    this.#o.caughtUp(ledger.cursor, held);
  }

  /** One page; throws when the server does not answer or answers an error. */
  async #page(after: number | null) {
    const answer = answerOf(
      CatchUpPageSchema,
      await this.#o.channel.ask(
        'relay:catch-up',
        { after, limit: CATCH_UP.page },
        CATCH_UP.timeoutMs,
      ),
      (problem) => ({ events: [], latest: 0, error: `an answer that does not fit: ${problem}` }),
    );
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer;
  }

  async #pages(turn: number): Promise<void> {
    const { ledger, log } = this.#o;
    let after = ledger.cursor;
    while (turn === this.#o.turn()) {
      const answer = await this.#page(after);
      if (turn !== this.#o.turn()) return;
      if (after === null) {
        log.debug({ latest: answer.latest }, 'first start: pushing events from now on');
        ledger.reset(answer.latest);
        this.#o.report();
        return;
      }
      if (answer.latest < after) {
        log.warn(
          { cursor: after, latest: answer.latest },
          'the server has fewer events than the cursor (a new database?); starting from its newest',
        );
        ledger.startOver(answer.latest);
        this.#o.report();
        return;
      }
      const events = answer.events
        .map(parseEvent)
        .sort((a, b) => (eventIdOf(a) ?? -1) - (eventIdOf(b) ?? -1));
      if (events.length > 0) log.info({ after, count: events.length }, 'catching up');
      for (const event of events) this.#o.handle(event);
      // Sorted, so the last event has the highest id there is.
      const last = events.map(eventIdOf).at(-1);
      if (events.length < CATCH_UP.page || last === undefined) return;
      after = last;
    }
  }
}
