import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NOTIFICATIONS_PAGE_MAX } from '../../../../src/contracts/notifications.ts';
import * as notifications from './service.ts';

const PageQuery = z.object({
  before: z.string().max(20).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).optional(),
});
const ReadBody = z.union(
  [z.object({ all: z.literal(true) }), z.object({ ids: z.array(z.string().max(20)).max(1000) })],
  { error: 'Send {ids: [...]} or {all: true}.' },
);
const IdParams = z.object({ id: z.string().max(20) });

export function notificationRoutes(
  app: FastifyInstance,
  { deps }: { deps: notifications.NotificationDeps },
) {
  app.get('/api/notifications', async (request) => {
    const { user } = await request.member();
    const query = PageQuery.parse(request.query);
    return notifications.page(deps, user, query.limit, query.before);
  });

  app.post('/api/notifications/read', async (request) => {
    const { user } = await request.member();
    const body = ReadBody.parse(request.body ?? {});
    return {
      ok: true,
      unread: await notifications.markRead(deps, user, 'all' in body ? 'all' : body.ids),
    };
  });

  app.delete('/api/notifications/:id', async (request, reply) => {
    const { user } = await request.member();
    await notifications.removeOne(deps, user, IdParams.parse(request.params).id);
    return reply.status(204).send();
  });

  app.delete('/api/notifications', async (request, reply) => {
    const { user } = await request.member();
    await notifications.removeAll(deps, user);
    return reply.status(204).send();
  });
}
