/** Time as the relay's parts see it: the system's, or a test's that moves only when told. */
export interface Clock {
  /** Milliseconds on a clock that never goes back (performance.now()). */
  now(): number;
  /** Calls `run` after `ms`; answers what cancels it. */
  after(ms: number, run: () => void): () => void;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  after(ms, run) {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  },
};

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
export function within(clock: Clock, promise: Promise<unknown>, ms: number): Promise<void> {
  const timeout = new AbortController();
  return Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    clock.sleep(ms, timeout.signal),
  ]).finally(() => timeout.abort());
}
