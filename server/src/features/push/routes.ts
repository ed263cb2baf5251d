import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { route } from '../../lib/route.ts';
import * as push from './service.ts';

const HOUR_MS = 60 * 60 * 1000;

const enabled = (app: { config: { relaySecret?: string | undefined } }) =>
  app.config.relaySecret !== undefined;

// Public: it is the key every subscription already carries, and it says nothing about a member.
export const pushPublicRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  route(app, endpoints.pushKey, {}, async () => ({
    publicKey: await push.vapidPublicKey(app.push, enabled(app)),
  }));
  done();
};

/** The member's devices: member routes. */
export const pushRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  if (app.config.pushEndpoints.allowLocal)
    app.log.warn(
      'PUSH_ALLOW_LOCAL_SERVICE is on: devices may subscribe on this machine (tests only)',
    );
  // One budget for subscribing and unsubscribing, per member: it runs before the handler, once
  // the member hook (preValidation) has said who is asking. Answers 429 with Retry-After.
  const limitChanges = app.rateLimit({
    max: push.SUBSCRIPTION_CHANGES_PER_HOUR,
    timeWindow: HOUR_MS,
    keyGenerator: (request) => `push-subscriptions:${request.member.user.id}`,
  });

  route(app, endpoints.pushSubscribe, { preHandler: limitChanges }, async (request, reply) => {
    const outcome = await push.subscribe(
      app.push,
      request.member,
      request.body,
      app.config.pushEndpoints,
    );
    return reply.status(outcome === 'created' ? 201 : 200).send({ ok: true });
  });

  route(app, endpoints.pushUnsubscribe, { preHandler: limitChanges }, async (request, reply) => {
    await push.unsubscribe(app.push, request.member.user.id, request.body.endpoint);
    return reply.status(204).send();
  });
  done();
};
