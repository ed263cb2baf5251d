/**
 * Per-endpoint backoff (docs/decisions.md "Push through a relay"): after a delivery to an endpoint
 * fails (5xx, 429, a timeout or a connection error, retries used up), pushes to it are skipped for
 * a wait that doubles with each failed delivery, from `baseMs` up to `maxMs`, and while a delivery
 * to it is retrying. A delivery that gets through ends the backoff. A push skipped is not queued:
 * a dead endpoint costs a bounded number of requests however many friend events there are.
 */

export interface BackoffPolicy {
  /** The wait after the first failed delivery. */
  baseMs: number;
  /** The longest wait. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 10 * 60_000 };

/** Endpoints remembered at most; beyond that the oldest failure is forgotten first. */
const MAX_TRACKED = 10_000;

interface Entry {
  failures: number;
  /** now() before which the endpoint is not tried. */
  until: number;
  /** Deliveries to it retrying after a failed attempt. */
  retrying: number;
}

export class EndpointBackoff {
  readonly #entries = new Map<string, Entry>();

  constructor(
    readonly policy: BackoffPolicy = DEFAULT_BACKOFF,
    readonly now: () => number = () => performance.now(),
  ) {}

  /** Milliseconds before this endpoint may be tried again: 0 when it may now. */
  waitFor(key: string): number {
    const entry = this.#entries.get(key);
    if (!entry) return 0;
    if (entry.retrying > 0) return Math.max(1, entry.until - this.now());
    return Math.max(0, entry.until - this.now());
  }

  /** A delivery to this endpoint failed an attempt and will try again: others wait meanwhile. */
  retrying(key: string): void {
    this.#entry(key).retrying++;
  }

  /** That delivery finished (whichever way); call once per earlier {@link retrying}. */
  doneRetrying(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.retrying = Math.max(0, entry.retrying - 1);
    if (entry.failures === 0 && entry.retrying === 0) this.#entries.delete(key);
  }

  /** A delivery failed for good: answers how long the endpoint now rests. */
  failed(key: string): number {
    const entry = this.#entry(key);
    entry.failures++;
    const wait = Math.min(this.policy.maxMs, this.policy.baseMs * 2 ** (entry.failures - 1));
    entry.until = this.now() + wait;
    return wait;
  }

  /** A delivery got through, or the endpoint is gone: no more waiting. */
  succeeded(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    if (entry.retrying > 0) Object.assign(entry, { failures: 0, until: 0 });
    else this.#entries.delete(key);
  }

  #entry(key: string): Entry {
    let entry = this.#entries.get(key);
    if (!entry) {
      if (this.#entries.size >= MAX_TRACKED) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      entry = { failures: 0, until: 0, retrying: 0 };
      this.#entries.set(key, entry);
    }
    return entry;
  }
}
