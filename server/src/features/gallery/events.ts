import { liveEvents, userRoom } from '../../plugins/realtime.ts';
import { galleryRoom, imageRoom } from '../../plugins/watching.ts';
import type { GalleryEvents } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Gallery changes to everyone watching the owner's gallery (and that image). */
    galleryEvents: GalleryEvents;
  }
}

/** The gallery's live events, sent through the realtime server to the rooms that watch. */
export const galleryEventsPlugin = liveEvents(
  'galleryEvents',
  (io) => ({
    created: (image) => io.to(galleryRoom(image.owner.id)).emit('gallery:image:created', image),
    // Every watcher hears the counts; the member who changed it hears their own reaction too,
    // on each socket of theirs, watching or not (docs/decisions.md "Reactions under a block").
    updated: (image, actor) => {
      io.to([galleryRoom(image.owner.id), imageRoom(image.id)])
        .except(userRoom(actor.id))
        .emit('gallery:image:updated', image);
      io.to(userRoom(actor.id)).emit('gallery:image:updated', {
        ...image,
        myReaction: actor.reaction,
      });
    },
    deleted: (payload) =>
      io
        .to([galleryRoom(payload.ownerId), imageRoom(payload.id)])
        .emit('gallery:image:deleted', payload),
  }),
  { name: 'orbit-gallery-events' },
);
