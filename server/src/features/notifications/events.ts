import { liveEvents, userRoom } from '../../plugins/realtime.ts';
import type { NotificationEvents } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** A member's notifications, live to their tabs and, for friend events, to the push relay. */
    notificationEvents: NotificationEvents;
  }
}

/** Notifications to every tab and device of their member, and each one to the push relay. */
export const notificationEventsPlugin = liveEvents(
  'notificationEvents',
  (io, app) => ({
    created: (recipientId, notification) => {
      io.to(userRoom(recipientId)).emit('notification:new', notification);
      app.relay.notificationCreated(recipientId, notification);
    },
    changed: (recipientId, change) =>
      io.to(userRoom(recipientId)).emit('notification:changed', change),
  }),
  { name: 'orbit-notifications', dependencies: ['orbit-relay'] },
);
