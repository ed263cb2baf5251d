import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { route } from '../../lib/route.ts';
import * as blocks from './service.ts';

/** Blocking (docs/product.md "Blocking"): member routes. */
export const blockRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: blocks.BlockDeps = {
    db: app.db,
    mediaUrl: app.media.url,
    notifications: app.notificationEvents,
    tellMember: app.friendEvents.toMember,
    separate: app.watching.separate,
    relayPairBlocked: (a, b, upTo) => app.relay.pairBlocked(a, b, upTo),
  };

  route(app, endpoints.blockList, {}, async (request) => ({
    users: await blocks.blocked(deps, request.member.user),
  }));

  route(app, endpoints.block, {}, async (request) => {
    await blocks.block(deps, request.member.user, request.body.userId);
    return { ok: true as const };
  });

  route(app, endpoints.unblock, {}, async (request) => {
    await blocks.unblock(deps, request.member.user, request.params.userId);
    return { ok: true as const };
  });
  done();
};
