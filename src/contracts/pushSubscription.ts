/**
 * The push subscription calls (docs/product.md "Offline, install and push"): the page saves and
 * removes its device and reads the relay's public key. The server validates with these schemas and
 * the client sends and reads them.
 */
import { z } from './zod.ts';

/** The longest push endpoint (a URL) Orbit keeps. */
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

/**
 * A whole number with a comma every three digits (2,048), as en-US writes it. Not
 * `toLocaleString`: its first call loads the browser's number formats, a long task on a phone
 * while this module runs at start.
 */
const grouped = (value: number): string => String(value).replace(/\B(?=(\d{3})+$)/g, ',');

export const SUBSCRIPTION_MESSAGES = {
  endpoint: 'Send the subscription’s endpoint.',
  endpointTooLong: `The push endpoint is too long (at most ${grouped(PUSH_ENDPOINT_MAX_LENGTH)} characters).`,
  endpointNotHttps: 'The push endpoint must be an https: address.',
  endpointUnsupported: 'This push service isn’t supported.',
  endpointNotAsBrowsersWrite: 'Send the push endpoint exactly as the browser gave it.',
  p256dh: 'The subscription’s p256dh key must be a P-256 public key (65 bytes, base64url).',
  auth: 'The subscription’s auth secret must be 16 bytes, base64url.',
} as const;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** How many bytes a base64url text decodes to; null when it is not base64url. */
function base64urlLength(value: string): number | null {
  if (!BASE64URL.test(value)) return null;
  return Math.floor((value.replace(/=+$/, '').length * 6) / 8);
}

/**
 * An https: URL. Which push services are accepted depends on the server's settings: the server
 * checks that with src/contracts/pushHosts.ts.
 */
function isPushServiceUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === 'https:';
}

const Endpoint = z
  .string()
  .check(
    z.minLength(1, SUBSCRIPTION_MESSAGES.endpoint),
    z.maxLength(PUSH_ENDPOINT_MAX_LENGTH, SUBSCRIPTION_MESSAGES.endpointTooLong),
  );

/**
 * What `PushSubscription.toJSON()` gives, as POST /api/push/subscriptions takes it. An uncompressed
 * P-256 point is 65 bytes starting with 0x04 (base64url `B…`); the server also checks it lies on
 * the curve.
 */
export const PushSubscriptionBody = z.object({
  endpoint: Endpoint.check(z.refine(isPushServiceUrl, SUBSCRIPTION_MESSAGES.endpointNotHttps)),
  keys: z.object({
    p256dh: z.string().check(
      z.maxLength(200, SUBSCRIPTION_MESSAGES.p256dh),
      z.refine(
        (value) => value.startsWith('B') && base64urlLength(value) === 65,
        SUBSCRIPTION_MESSAGES.p256dh,
      ),
    ),
    auth: z.string().check(
      z.maxLength(100, SUBSCRIPTION_MESSAGES.auth),
      z.refine((value) => base64urlLength(value) === 16, SUBSCRIPTION_MESSAGES.auth),
    ),
  }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** DELETE /api/push/subscriptions */
export const PushUnsubscribeBody = z.object({ endpoint: Endpoint });
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBody>;

/** GET /api/push/vapid-public-key → 200 `{ publicKey }` (base64url, uncompressed P-256 point). */
export const VapidPublicKeyResponse = z.object({ publicKey: z.string() });
export type VapidPublicKeyResponse = z.infer<typeof VapidPublicKeyResponse>;
