/**
 * The server-state pieces a feature store needs, in one place so every store keeps them the same
 * way: answers kept for a while (TTL), one request in flight per key, optimistic changes that are
 * rolled back when the call fails, a throttle, and timers that `reset()` clears together (at
 * logout nothing may fire for the member who left).
 */

/** The result of `optimistic`: whether the server agreed, and its answer when it did. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface Throttle {
  /** Runs now, or once when the interval since the last run is over; calls in between merge. */
  call: () => void;
  /** Forgets the waiting run and the last run, so the next call runs at once. */
  cancel: () => void;
}

export interface ServerState {
  /** Whether an answer fetched at `fetchedAt` is still within `ttlMs`. */
  isFresh: (fetchedAt: number | undefined, ttlMs: number) => boolean;
  /** The running request for `key`, or a new one from `start`: one request in flight per key. */
  dedupe: <T>(key: string, start: () => Promise<T>) => Promise<T>;
  /**
   * Applies a change at once; `apply` answers how to undo it. When `call` fails the change is
   * undone; either way the outcome says what happened.
   */
  optimistic: <T>(apply: () => () => void, call: () => Promise<T>) => Promise<Outcome<T>>;
  /** Runs `run` once after `ms`; `reset()` cancels it. */
  later: (run: () => void, ms: number) => void;
  /** Runs `run` once, `ms` after the last call for `key` (a burst costs one run). */
  debounce: (key: string, run: () => void, ms: number) => void;
  /** A throttle whose waiting run `reset()` cancels too; it stays usable after a reset. */
  throttle: (run: () => void, ms: number) => Throttle;
  /** Cancels every timer and throttle and forgets the requests in flight. */
  reset: () => void;
}

/**
 * Runs `run` at most once per `ms`: a call inside the window is deferred to its end (one trailing
 * run however many calls came in), so the last change is never lost.
 */
export function createThrottle(run: () => void, ms: number): Throttle {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    run();
  };
  return {
    call() {
      const wait = last + ms - Date.now();
      if (wait <= 0 && timer === undefined) fire();
      else timer ??= setTimeout(fire, Math.max(0, wait));
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      last = -Infinity;
    },
  };
}

export function createServerState(): ServerState {
  const inFlight = new Map<string, Promise<unknown>>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const debounced = new Map<string, ReturnType<typeof setTimeout>>();
  const throttles = new Set<Throttle>();

  const later = (run: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  return {
    isFresh: (fetchedAt, ttlMs) => fetchedAt !== undefined && Date.now() - fetchedAt < ttlMs,

    dedupe<T>(key: string, start: () => Promise<T>): Promise<T> {
      const running = inFlight.get(key) as Promise<T> | undefined;
      if (running) return running;
      const request = start().finally(() => {
        if (inFlight.get(key) === request) inFlight.delete(key);
      });
      inFlight.set(key, request);
      return request;
    },

    async optimistic<T>(apply: () => () => void, call: () => Promise<T>): Promise<Outcome<T>> {
      const undo = apply();
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        undo();
        return { ok: false, error };
      }
    },

    later,

    debounce(key, run, ms) {
      clearTimeout(debounced.get(key));
      debounced.set(
        key,
        setTimeout(() => {
          debounced.delete(key);
          run();
        }, ms),
      );
    },

    throttle(run, ms) {
      const throttle = createThrottle(run, ms);
      throttles.add(throttle);
      return throttle;
    },

    reset() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const timer of debounced.values()) clearTimeout(timer);
      debounced.clear();
      for (const throttle of throttles) throttle.cancel();
      inFlight.clear();
    },
  };
}
