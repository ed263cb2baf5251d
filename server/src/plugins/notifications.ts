import fp from 'fastify-plugin';
import type { NotificationEvents } from '../features/notifications/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** A member's notifications, live to their tabs and, for friend events, to the push relay. */
    notificationEvents: NotificationEvents;
  }
}

export const notificationsPlugin = fp(
  (app, _options, done) => {
    const live = app.realtime.notificationEvents;
    app.decorate('notificationEvents', {
      ...live,
      created: (recipientId, notification) => {
        live.created(recipientId, notification);
        app.relay.notificationCreated(recipientId, notification);
      },
    } satisfies NotificationEvents);
    done();
  },
  { name: 'orbit-notifications', dependencies: ['orbit-realtime', 'orbit-relay'] },
);
