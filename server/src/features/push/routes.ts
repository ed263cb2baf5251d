import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { OkResponse } from '../../../../src/contracts/http.ts';
import {
  PUSH_API,
  PushSubscriptionBody,
  PushUnsubscribeBody,
  VapidPublicKeyResponse,
} from '../../../../src/contracts/pushSubscription.ts';
import * as push from './service.ts';

const enabled = (app: { config: { relaySecret?: string | undefined } }) =>
  app.config.relaySecret !== undefined;

// Public: it is the key every subscription already carries, and it says nothing about a member.
export const pushPublicRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  app.get(
    PUSH_API.vapidPublicKey,
    { schema: { response: { 200: VapidPublicKeyResponse } } },
    async () => ({ publicKey: await push.vapidPublicKey(app.push, enabled(app)) }),
  );
  done();
};

/** The member's devices: member routes. */
export const pushRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  app.post(
    PUSH_API.subscriptions,
    { schema: { body: PushSubscriptionBody, response: { 200: OkResponse, 201: OkResponse } } },
    async (request, reply) => {
      const outcome = await push.subscribe(app.push, request.member, request.body);
      return reply.status(outcome === 'created' ? 201 : 200).send({ ok: true });
    },
  );

  app.delete(
    PUSH_API.subscriptions,
    { schema: { body: PushUnsubscribeBody } },
    async (request, reply) => {
      await push.unsubscribe(app.push, request.member.user.id, request.body.endpoint);
      return reply.status(204).send();
    },
  );
  done();
};
