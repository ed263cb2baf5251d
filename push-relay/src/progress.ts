import { RelayCursorAnswer, type RelayProgress } from '../../src/contracts/push.ts';
import type { ServerChannel } from './channel.ts';
import type { Clock } from './clock.ts';
import { answerOf } from './events.ts';
import type { EventLedger } from './ledger.ts';
import type { Logger } from './log.ts';

const REPORT_TIMEOUT_MS = 10_000;
const REPORT_RETRY_MS = 1_000;

export interface ProgressOptions {
  relayId: string;
  ledger: EventLedger;
  channel: ServerChannel;
  clock: Clock;
  log: Logger;
  /** Aborted when the relay stops: a report that fails then is not retried. */
  stopping: AbortSignal;
  /** The server kept this progress with the lease. */
  reported(progress: RelayProgress): void;
  /** The server said another relay holds the lease. */
  leaseLost(): void;
}

/**
 * Reports the ledger's progress to the server, which keeps it with the lease for whoever holds it
 * next. A burst of changes costs one report; a report the server did not keep is sent again.
 */
export class ProgressReports {
  #wanted = false;
  #reporting: Promise<void> | undefined;
  readonly #o: ProgressOptions;

  constructor(options: ProgressOptions) {
    this.#o = options;
  }

  /** Something changed: the server is to hear of it. */
  report(): void {
    this.#wanted = true;
    // Waits a turn, so a device finishing and its event settling make one report.
    this.#reporting ??= new Promise((resolve) => setImmediate(resolve))
      .then(() => this.#drain())
      .finally(() => {
        this.#reporting = undefined;
      });
  }

  /** Resolves once the reports asked for so far are sent (or given up on). */
  async sent(): Promise<void> {
    await this.#reporting;
  }

  /** Sends the newest progress until the server has it. */
  async #drain(): Promise<void> {
    const { channel, ledger, relayId, log, clock, stopping } = this.#o;
    while (this.#wanted && channel.connected) {
      this.#wanted = false;
      const progress = ledger.progress();
      if (!progress) return;
      let answer: RelayCursorAnswer;
      try {
        answer = answerOf(
          RelayCursorAnswer,
          await channel.ask('relay:cursor', { relayId, ...progress }, REPORT_TIMEOUT_MS),
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
        this.#o.reported(progress);
        continue;
      }
      if (answer.leaseLost) {
        this.#o.leaseLost();
        return;
      }
      this.#wanted = true;
      // The next connection's lease reports again; a relay stopping has nobody to tell.
      if (stopping.aborted || !channel.connected) return;
      log.warn(
        { relayId, problem: answer.error },
        `the server did not keep the progress; reporting again in ${REPORT_RETRY_MS / 1000} s`,
      );
      await clock.sleep(REPORT_RETRY_MS);
    }
  }
}
