import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  NotificationIdParams,
  NotificationPage,
  NotificationPageQuery,
  NotificationReadBody,
  NotificationReadResponse,
} from '../../../../src/contracts/notifications.ts';
import * as notifications from './service.ts';

/** The member's notifications (docs/product.md "Notification state"): member routes. */
export const notificationRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: notifications.NotificationDeps = {
    db: app.db,
    events: app.notificationEvents,
    mediaUrl: app.media.url,
  };

  app.get(
    '/api/notifications',
    { schema: { querystring: NotificationPageQuery, response: { 200: NotificationPage } } },
    async (request) =>
      notifications.page(deps, request.member.user, request.query.limit, request.query.before),
  );

  app.post(
    '/api/notifications/read',
    { schema: { body: NotificationReadBody, response: { 200: NotificationReadResponse } } },
    async (request) => {
      const { body } = request;
      return {
        ok: true as const,
        unread: await notifications.markRead(
          deps,
          request.member.user,
          'all' in body ? 'all' : body.ids,
        ),
      };
    },
  );

  app.delete(
    '/api/notifications/:id',
    { schema: { params: NotificationIdParams } },
    async (request, reply) => {
      await notifications.removeOne(deps, request.member.user, request.params.id);
      return reply.status(204).send();
    },
  );

  app.delete('/api/notifications', async (request, reply) => {
    await notifications.removeAll(deps, request.member.user);
    return reply.status(204).send();
  });
  done();
};
