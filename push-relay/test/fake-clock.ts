/** A clock and a server channel for driving the relay's parts without waiting or sockets. */
import type { RelayClientToServer } from '../../src/contracts/push.ts';
import type { ServerChannel } from '../src/channel.ts';
import type { Clock } from '../src/clock.ts';

/** A clock that moves only when a test says so, running each timer that falls due in order. */
export class FakeClock implements Clock {
  time = 0;
  #timers: { at: number; run: () => void }[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, run: () => void): () => void {
    const timer = { at: this.time + ms, run };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((entry) => entry !== timer);
    };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const cancel = this.after(ms, resolve);
      signal?.addEventListener('abort', () => (cancel(), resolve()), { once: true });
    });
  }

  /** Moves time on by `ms`, letting the work each timer starts run before the next is due. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await settle();
      const due = this.#timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((timer) => timer !== due);
      this.time = due.at;
      due.run();
    }
    this.time = end;
    await settle();
  }
}

/** Lets promise chains and the callbacks queued behind them (setImmediate) run. */
export async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
}

export type Asked = {
  [E in keyof RelayClientToServer]: { event: E; request: Parameters<RelayClientToServer[E]>[0] };
}[keyof RelayClientToServer];

/**
 * The server as a test plays it: each request is recorded and answered by `answer`; `undefined`
 * from it leaves the request unanswered until its timeout passes on the clock.
 */
export class FakeServer implements ServerChannel {
  connected = true;
  readonly asked: Asked[] = [];
  answer: (asked: Asked) => unknown = () => undefined;

  constructor(private readonly clock: FakeClock) {}

  ask<E extends keyof RelayClientToServer>(
    event: E,
    request: Parameters<RelayClientToServer[E]>[0],
    timeoutMs: number,
  ): Promise<unknown> {
    const asked = { event, request } as Asked;
    this.asked.push(asked);
    const answer = this.answer(asked);
    if (answer !== undefined) return Promise.resolve(answer);
    return this.clock.sleep(timeoutMs).then(() => {
      throw new Error('operation has timed out');
    });
  }

  /** The requests of one kind, in order. */
  requests<E extends keyof RelayClientToServer>(event: E): Parameters<RelayClientToServer[E]>[0][] {
    return this.asked
      .filter((asked) => asked.event === event)
      .map((asked) => asked.request as Parameters<RelayClientToServer[E]>[0]);
  }
}
