import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PUSH_API } from '../../../../src/contracts/push.ts';
import * as push from './service.ts';

const { MAX_ENDPOINT_LENGTH } = push;

export const SUBSCRIPTION_MESSAGES = {
  endpoint: 'Send the subscription’s endpoint.',
  endpointTooLong: `The push endpoint is too long (at most ${MAX_ENDPOINT_LENGTH.toLocaleString('en-US')} characters).`,
  endpointNotHttps: 'The push endpoint must be an https: address.',
  p256dh: 'The subscription’s p256dh key must be a P-256 public key (65 bytes, base64url).',
  auth: 'The subscription’s auth secret must be 16 bytes, base64url.',
} as const;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https: anywhere; http: only on this machine (a local push service in tests and development). */
function isPushServiceUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

const Endpoint = z
  .string()
  .min(1, SUBSCRIPTION_MESSAGES.endpoint)
  .max(MAX_ENDPOINT_LENGTH, SUBSCRIPTION_MESSAGES.endpointTooLong);

const SubscriptionBody = z.object({
  endpoint: Endpoint.refine(isPushServiceUrl, SUBSCRIPTION_MESSAGES.endpointNotHttps),
  keys: z.object({
    p256dh: z
      .string()
      .max(200, SUBSCRIPTION_MESSAGES.p256dh)
      .refine(push.isP256PublicKey, SUBSCRIPTION_MESSAGES.p256dh),
    auth: z
      .string()
      .max(100, SUBSCRIPTION_MESSAGES.auth)
      .refine(push.isAuthSecret, SUBSCRIPTION_MESSAGES.auth),
  }),
});

const UnsubscribeBody = z.object({ endpoint: Endpoint });

export function pushRoutes(
  app: FastifyInstance,
  { deps, enabled }: { deps: push.PushDeps; enabled: boolean },
) {
  // Public: it is the key every subscription already carries, and it says nothing about a member.
  app.get(PUSH_API.vapidPublicKey, async () => ({
    publicKey: await push.vapidPublicKey(deps, enabled),
  }));

  app.post(PUSH_API.subscriptions, async (request, reply) => {
    const auth = await request.member();
    const body = SubscriptionBody.parse(request.body ?? {});
    const outcome = await push.subscribe(deps, auth, body);
    return reply.status(outcome === 'created' ? 201 : 200).send({ ok: true });
  });

  app.delete(PUSH_API.subscriptions, async (request, reply) => {
    const { user } = await request.member();
    const { endpoint } = UnsubscribeBody.parse(request.body ?? {});
    await push.unsubscribe(deps, user.id, endpoint);
    return reply.status(204).send();
  });
}
