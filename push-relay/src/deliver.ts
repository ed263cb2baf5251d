import { createHash } from 'node:crypto';
import type https from 'node:https';
import webpush, { WebPushError } from 'web-push';
import {
  PUSH_TOPIC_LENGTH,
  type PushPayload,
  type RelaySubscription,
} from '../../src/contracts/push.ts';
import type { RetryPolicy } from './config.ts';
import type { VapidKeys } from './vapid.ts';

/** The push `Topic`: repeats of one request replace each other at the push service. */
export function pushTopic(requestId: string): string {
  return createHash('sha256').update(requestId).digest('base64url').slice(0, PUSH_TOPIC_LENGTH);
}

export const urgencyOf = (kind: PushPayload['kind']) =>
  kind === 'friend_request' ? ('high' as const) : ('normal' as const);

/**
 * How one delivery ended: `sent`; `gone` (404/410, the device unsubscribed); `dropped` (another
 * 4xx or an unusable subscription: retrying cannot help); `failed` (retries used up).
 */
export type DeliveryOutcome =
  | { result: 'sent'; status: number; attempts: number }
  | { result: 'gone'; status: number; attempts: number }
  | { result: 'dropped'; status: number | undefined; reason: string; attempts: number }
  | { result: 'failed'; status: number | undefined; reason: string; attempts: number };

type Attempt =
  | { kind: 'done'; outcome: DeliveryOutcome }
  | { kind: 'retry'; status: number | undefined; reason: string; retryAfterMs: number | undefined };

/** VAPID tokens live this long; push services allow up to 24 hours (RFC 8292 §2). */
const VAPID_TOKEN_SECONDS = 12 * 3600;
/** A token is renewed when less than this is left of it. */
const VAPID_RENEW_SECONDS = 3600;

/**
 * The VAPID `Authorization` header for each push service, signed once and reused until it
 * nears its expiry (an ES256 signature per push would cost more than the encryption).
 */
export class VapidAuthorization {
  readonly #tokens = new Map<string, { header: string; expires: number }>();

  constructor(readonly vapid: VapidKeys & { subject: string }) {}

  for(endpoint: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
    const audience = new URL(endpoint).origin;
    const cached = this.#tokens.get(audience);
    if (cached && cached.expires - nowSeconds > VAPID_RENEW_SECONDS) return cached.header;
    const expires = nowSeconds + VAPID_TOKEN_SECONDS;
    const { Authorization: header } = webpush.getVapidHeaders(
      audience,
      this.vapid.subject,
      this.vapid.publicKey,
      this.vapid.privateKey,
      'aes128gcm',
      expires,
    );
    this.#tokens.set(audience, { header, expires });
    return header;
  }
}

export interface PushSender {
  vapid: VapidAuthorization;
  ttlSeconds: number;
  agent: https.Agent;
  /** Bounds the requests in flight (a wait between retries holds no slot). */
  limiter: Limiter;
  retry: RetryPolicy;
  /** Per-request time limit. */
  timeoutMs: number;
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in milliseconds from now. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  const value: unknown = Array.isArray(header) ? (header as unknown[])[0] : header;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Socket and DNS failures carry a code; web-push's own timeout carries only its message. */
function isNetworkError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' || error.message === 'Socket timeout';
}

async function attempt(
  sender: PushSender,
  subscription: RelaySubscription,
  payload: PushPayload,
  attempts: number,
): Promise<Attempt> {
  try {
    const response = await webpush.sendNotification(subscription, JSON.stringify(payload), {
      // Signed here (no vapidDetails), so web-push does not sign a token for every push.
      headers: { Authorization: sender.vapid.for(subscription.endpoint) },
      contentEncoding: 'aes128gcm',
      TTL: sender.ttlSeconds,
      urgency: urgencyOf(payload.kind),
      topic: pushTopic(payload.requestId),
      agent: sender.agent,
      timeout: sender.timeoutMs,
    });
    return { kind: 'done', outcome: { result: 'sent', status: response.statusCode, attempts } };
  } catch (error) {
    if (error instanceof WebPushError) {
      const status = error.statusCode;
      if (status === 404 || status === 410)
        return { kind: 'done', outcome: { result: 'gone', status, attempts } };
      const reason = `the push service answered ${status}`;
      if (status === 429 || status >= 500)
        return {
          kind: 'retry',
          status,
          reason,
          retryAfterMs: retryAfterMs(error.headers['retry-after']),
        };
      return { kind: 'done', outcome: { result: 'dropped', status, reason, attempts } };
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    if (isNetworkError(failure))
      return { kind: 'retry', status: undefined, reason: failure.message, retryAfterMs: undefined };
    return {
      kind: 'done',
      outcome: { result: 'dropped', status: undefined, reason: failure.message, attempts },
    };
  }
}

/** Exponential backoff with jitter (half to full), or longer when the service asks. */
export function backoffMs(
  policy: RetryPolicy,
  attempts: number,
  asked: number | undefined,
): number {
  const exponential = policy.baseMs * 2 ** (attempts - 1);
  const jittered = exponential / 2 + Math.random() * (exponential / 2);
  return Math.max(jittered, asked ?? 0);
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * One push to one device, retried on 429, 5xx and network errors within the policy. Rejects only
 * when `signal` aborts (the relay is stopping; the event stays unacknowledged and comes back).
 */
export async function deliver(
  sender: PushSender,
  subscription: RelaySubscription,
  payload: PushPayload,
  signal: AbortSignal,
  onRetry?: (info: { attempts: number; waitMs: number; reason: string }) => void,
): Promise<DeliveryOutcome> {
  const started = Date.now();
  for (let attempts = 1; ; attempts++) {
    if (signal.aborted) throw signal.reason as Error;
    const result = await sender.limiter.run(() => attempt(sender, subscription, payload, attempts));
    if (result.kind === 'done') return result.outcome;
    const waitMs = backoffMs(sender.retry, attempts, result.retryAfterMs);
    const outOfTime = Date.now() + waitMs - started > sender.retry.budgetMs;
    if (attempts >= sender.retry.maxAttempts || outOfTime)
      return { result: 'failed', status: result.status, reason: result.reason, attempts };
    onRetry?.({ attempts, waitMs, reason: result.reason });
    await pause(waitMs, signal);
  }
}

/** At most `limit` tasks at once; the rest wait their turn in order. */
export class Limiter {
  #active = 0;
  readonly #queue: (() => void)[] = [];

  constructor(readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next in line.
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#queue.push(resolve));
    else this.#active++;
    try {
      return await task();
    } finally {
      const next = this.#queue.shift();
      if (next) next();
      else this.#active--;
    }
  }
}
