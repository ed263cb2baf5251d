import { createHash } from 'node:crypto';
import type https from 'node:https';
import { setTimeout as wait } from 'node:timers/promises';
import type { LimitFunction } from 'p-limit';
import pRetry from 'p-retry';
import webpush, { WebPushError } from 'web-push';
import {
  PUSH_TOPIC_LENGTH,
  type PushPayload,
  type RelaySubscription,
} from '../../src/contracts/push.ts';
import { RefusedEndpointError } from './address.ts';
import type { RetryPolicy } from './config.ts';
import type { VapidKeys } from './vapid.ts';

/** The push `Topic`: repeats of one request replace each other at the push service. */
export function pushTopic(requestId: string): string {
  return createHash('sha256').update(requestId).digest('base64url').slice(0, PUSH_TOPIC_LENGTH);
}

const urgencyOf = (kind: PushPayload['kind']) =>
  kind === 'friend_request' ? ('high' as const) : ('normal' as const);

/**
 * How one delivery ended: `sent`; `gone` (404/410, the device unsubscribed); `dropped` (another
 * 4xx or an unusable subscription: retrying cannot help; `refused` when Orbit does not send to that
 * endpoint at all, see address.ts, or `backingOff` when it was not tried because the endpoint
 * failed lately); `failed` (retries used up).
 */
export type DeliveryOutcome =
  | { result: 'sent'; status: number; attempts: number }
  | { result: 'gone'; status: number; attempts: number }
  | {
      result: 'dropped';
      status: number | undefined;
      reason: string;
      attempts: number;
      refused?: true;
      backingOff?: true;
    }
  | { result: 'failed'; status: number | undefined; reason: string; attempts: number };

/** A failure worth another attempt: 429, 5xx or a network error. */
class RetryableError extends Error {
  constructor(
    readonly status: number | undefined,
    reason: string,
    /** How long the push service asked to be left alone (Retry-After). */
    readonly retryAfterMs: number | undefined,
  ) {
    super(reason);
  }
}

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
  limiter: LimitFunction;
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

/** One request: its outcome, or a RetryableError when another attempt may get through. */
async function attempt(
  sender: PushSender,
  subscription: RelaySubscription,
  payload: PushPayload,
  attempts: number,
): Promise<DeliveryOutcome> {
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
    return { result: 'sent', status: response.statusCode, attempts };
  } catch (error) {
    if (error instanceof WebPushError) {
      const status = error.statusCode;
      if (status === 404 || status === 410) return { result: 'gone', status, attempts };
      const reason = `the push service answered ${status}`;
      if (status === 429 || status >= 500)
        throw new RetryableError(status, reason, retryAfterMs(error.headers['retry-after']));
      return { result: 'dropped', status, reason, attempts };
    }
    if (error instanceof RefusedEndpointError)
      return {
        result: 'dropped',
        status: undefined,
        reason: error.message,
        attempts,
        refused: true,
      };
    const failure = error instanceof Error ? error : new Error(String(error));
    if (isNetworkError(failure)) throw new RetryableError(undefined, failure.message, undefined);
    return { result: 'dropped', status: undefined, reason: failure.message, attempts };
  }
}

/**
 * One push to one device, retried on 429, 5xx and network errors within the policy: waits double
 * from `baseMs` with jitter (half to full), and a Retry-After is waited out before that. Rejects
 * only when `signal` aborts (the relay is stopping; the event stays unacknowledged and comes back).
 */
export async function deliver(
  sender: PushSender,
  subscription: RelaySubscription,
  payload: PushPayload,
  signal: AbortSignal,
  onRetry?: (info: { attempts: number; reason: string; retryAfterMs?: number }) => void,
): Promise<DeliveryOutcome> {
  const { maxAttempts, baseMs, budgetMs } = sender.retry;
  const started = performance.now();
  let tried = 0;
  let finished: DeliveryOutcome | undefined;
  try {
    return await pRetry(
      async (attempts) => {
        tried = attempts;
        return (finished = await sender.limiter(() =>
          attempt(sender, subscription, payload, attempts),
        ));
      },
      {
        retries: maxAttempts - 1,
        minTimeout: baseMs / 2,
        factor: 2,
        randomize: true,
        maxRetryTime: budgetMs,
        signal,
        // Called only when another attempt is due: waits out Retry-After unless that would end
        // past the budget, when the delivery gives up as it would on its last attempt.
        async shouldRetry({ error, attemptNumber }) {
          const asked = error instanceof RetryableError ? error.retryAfterMs : undefined;
          if (asked !== undefined && performance.now() + asked - started > budgetMs) return false;
          onRetry?.({
            attempts: attemptNumber,
            reason: error.message,
            ...(asked === undefined ? {} : { retryAfterMs: asked }),
          });
          if (asked) await wait(asked, undefined, { signal });
          return true;
        },
      },
    );
  } catch (error) {
    // A request that finished as the relay began stopping counts: its device has the push.
    if (finished) return finished;
    if (!(error instanceof RetryableError)) throw error;
    return { result: 'failed', status: error.status, reason: error.message, attempts: tried };
  }
}
