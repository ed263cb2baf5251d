import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { OkResponse } from '../../../../src/contracts/http.ts';
import { BlockBody, BlockListResponse, BlockParams } from '../../../../src/contracts/safety.ts';
import * as blocks from './service.ts';

/** Blocking (docs/product.md "Blocking"): member routes. */
export const blockRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: blocks.BlockDeps = {
    db: app.db,
    mediaUrl: app.media.url,
    notifications: app.notificationEvents,
    tellMember: (userId, event, payload) => app.realtime.friendEventTo(userId, event, payload),
    separate: (a, b) => app.realtime.separate(a, b),
    relayPairBlocked: (a, b, upTo) => app.relay.pairBlocked(a, b, upTo),
  };

  app.get(
    '/api/users/blocks',
    { schema: { response: { 200: BlockListResponse } } },
    async (request) => ({ users: await blocks.blocked(deps, request.member.user) }),
  );

  app.post(
    '/api/users/blocks',
    { schema: { body: BlockBody, response: { 200: OkResponse } } },
    async (request) => {
      await blocks.block(deps, request.member.user, request.body.userId);
      return { ok: true as const };
    },
  );

  app.delete(
    '/api/users/blocks/:userId',
    { schema: { params: BlockParams, response: { 200: OkResponse } } },
    async (request) => {
      await blocks.unblock(deps, request.member.user, request.params.userId);
      return { ok: true as const };
    },
  );
  done();
};
