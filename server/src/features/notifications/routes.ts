import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { route } from '../../lib/route.ts';
import * as notifications from './service.ts';

/** The member's notifications (docs/product.md "Notification state"): member routes. */
export const notificationRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: notifications.NotificationDeps = {
    db: app.db,
    events: app.notificationEvents,
    mediaUrl: app.media.url,
  };

  route(app, endpoints.notifications, {}, async (request) =>
    notifications.page(deps, request.member.user, request.query.limit, request.query.before),
  );

  route(app, endpoints.notificationsRead, {}, async (request) => {
    const { body } = request;
    return {
      ok: true as const,
      unread: await notifications.markRead(
        deps,
        request.member.user,
        'all' in body ? 'all' : body.ids,
      ),
    };
  });

  route(app, endpoints.notificationDelete, {}, async (request, reply) => {
    await notifications.removeOne(deps, request.member.user, request.params.id);
    return reply.status(204).send();
  });

  route(app, endpoints.notificationsClear, {}, async (request, reply) => {
    await notifications.removeAll(deps, request.member.user);
    return reply.status(204).send();
  });
  done();
};
