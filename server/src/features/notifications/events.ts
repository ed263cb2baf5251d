import fp from 'fastify-plugin';
import { userRoom } from '../../plugins/realtime.ts';
import type { NotificationEvents } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** A member's notifications, live to their tabs and, for friend events, to the push relay. */
    notificationEvents: NotificationEvents;
  }
}

/** Notifications to every tab and device of their member, and each one to the push relay. */
export const notificationEventsPlugin = fp(
  (app, _options, done) => {
    const { io } = app.realtime;
    app.decorate('notificationEvents', {
      created: (recipientId, notification) => {
        io.to(userRoom(recipientId)).emit('notification:new', notification);
        app.relay.notificationCreated(recipientId, notification);
      },
      changed: (recipientId, change) =>
        io.to(userRoom(recipientId)).emit('notification:changed', change),
    } satisfies NotificationEvents);
    done();
  },
  { name: 'orbit-notifications', dependencies: ['orbit-realtime', 'orbit-relay'] },
);
