import pLimit from 'p-limit';
import { PUSH_TTL_SECONDS, type RelayEvent, RelayGoneAnswer } from '../../src/contracts/push.ts';
import type { PushEndpointPolicy } from '../../src/contracts/pushHosts.ts';
import { type Resolver, endpointRefusal, pushAgent } from './address.ts';
import type { EndpointBackoff } from './backoff.ts';
import type { ServerChannel } from './channel.ts';
import type { RetryPolicy } from './config.ts';
import { type DeliveryOutcome, type PushSender, VapidAuthorization, deliver } from './deliver.ts';
import { answerOf, serviceOf } from './events.ts';
import { deviceKey } from './ledger.ts';
import type { Logger } from './log.ts';
import type { VapidKeys } from './vapid.ts';

const GONE_ACK_TIMEOUT_MS = 10_000;
const PUSH_REQUEST_TIMEOUT_MS = 15_000;
/** Endpoints refused lately, each logged at warn once; forgotten past this many. */
const REFUSED_REMEMBERED = 10_000;

export type Device = RelayEvent['subscriptions'][number];

export interface SenderOptions {
  vapidSubject: string;
  endpoints: PushEndpointPolicy;
  ttlSeconds?: number | undefined;
  concurrency?: number | undefined;
  resolve?: Resolver | undefined;
  trustedCa?: string | Buffer | undefined;
  retry?: Partial<RetryPolicy> | undefined;
}

/** How pushes go out: signed with the VAPID keys, so many at once, retried so long. */
export function pushSender(keys: VapidKeys, o: SenderOptions): PushSender {
  const concurrency = o.concurrency ?? 50;
  return {
    vapid: new VapidAuthorization({ ...keys, subject: o.vapidSubject }),
    ttlSeconds: o.ttlSeconds ?? PUSH_TTL_SECONDS,
    agent: pushAgent({
      concurrency,
      endpoints: o.endpoints,
      resolve: o.resolve,
      trustedCa: o.trustedCa,
    }),
    limiter: pLimit(concurrency),
    retry: { maxAttempts: 5, baseMs: 1_000, budgetMs: 5 * 60_000, ...o.retry },
    timeoutMs: PUSH_REQUEST_TIMEOUT_MS,
  };
}

export interface DevicePushOptions {
  sender: PushSender;
  endpoints: PushEndpointPolicy;
  backoff: EndpointBackoff;
  channel: ServerChannel;
  log: Logger;
}

/** One event's push to one device: refused, rested, sent, retried or gone. */
export class DevicePushes {
  readonly #refused = new Set<string>();
  readonly #o: DevicePushOptions;

  constructor(options: DevicePushOptions) {
    this.#o = options;
  }

  async push(event: RelayEvent, device: Device, signal: AbortSignal): Promise<DeliveryOutcome> {
    const { backoff, log } = this.#o;
    const id = event.payload.id;
    const service = serviceOf(device.endpoint);
    const refusal = endpointRefusal(device.endpoint, this.#o.endpoints);
    if (refusal !== undefined) return this.#refuse(id, device.endpoint, refusal);
    const key = deviceKey(device.endpoint);
    const resting = backoff.waitFor(key);
    if (resting > 0) {
      log.debug(
        { id, service, waitMs: Math.round(resting) },
        'push skipped: the endpoint failed lately',
      );
      const reason = 'the endpoint failed lately';
      return { result: 'dropped', status: undefined, reason, attempts: 0, backingOff: true };
    }
    let retrying = false;
    let outcome: DeliveryOutcome;
    try {
      outcome = await deliver(this.#o.sender, device, event.payload, signal, (retry) => {
        if (!retrying) backoff.retrying(key);
        retrying = true;
        log.info({ id, service, ...retry }, 'push not accepted yet; retrying');
      });
    } finally {
      if (retrying) backoff.doneRetrying(key);
    }
    if (outcome.result === 'dropped' && outcome.refused)
      return this.#refuse(id, device.endpoint, outcome.reason);
    if (outcome.result === 'failed') {
      const waitMs = backoff.failed(key);
      log.warn({ id, service, ...outcome, waitMs }, 'push failed; resting the endpoint');
      return outcome;
    }
    backoff.succeeded(key);
    if (outcome.result === 'sent') log.debug({ id, service }, 'push sent');
    else if (outcome.result === 'gone') {
      log.info({ id, service, status: outcome.status }, 'subscription gone; telling the server');
      await this.#reportGone(device.endpoint);
    } else log.warn({ id, service, ...outcome }, `push ${outcome.result}`);
    return outcome;
  }

  /**
   * An endpoint Orbit does not push to (address.ts): dropped, and the server forgets it as it
   * does a gone one. Logged at warn once per endpoint.
   */
  async #refuse(id: number, endpoint: string, reason: string): Promise<DeliveryOutcome> {
    const { log } = this.#o;
    const key = deviceKey(endpoint);
    const service = serviceOf(endpoint);
    if (this.#refused.has(key)) log.debug({ id, service, reason }, 'push refused');
    else {
      if (this.#refused.size >= REFUSED_REMEMBERED) this.#refused.clear();
      this.#refused.add(key);
      log.warn(
        { id, service, reason },
        'push refused: not a push service Orbit sends to; telling the server',
      );
    }
    this.#o.backoff.succeeded(key);
    await this.#reportGone(endpoint);
    return { result: 'dropped', status: undefined, reason, attempts: 0, refused: true };
  }

  async #reportGone(endpoint: string): Promise<void> {
    const service = serviceOf(endpoint);
    try {
      // The server acknowledges with nothing, or with { error } when it could not delete.
      const answer = answerOf(
        RelayGoneAnswer,
        await this.#o.channel.ask('relay:subscription-gone', { endpoint }, GONE_ACK_TIMEOUT_MS),
        (problem) => ({ error: `an answer that does not fit: ${problem}` }),
      );
      if (answer?.error)
        this.#o.log.warn({ service, problem: answer.error }, 'the server kept a gone subscription');
    } catch {
      this.#o.log.warn({ service }, 'the server did not confirm a gone subscription');
    }
  }
}
