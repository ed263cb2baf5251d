import fp from 'fastify-plugin';
import { type ImageQueue, createImageQueue, defaultImageWorkers } from '../lib/images.ts';
import { type UploadLimits, memoryUploadLimits, redisUploadLimits } from '../lib/uploadLimits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one queue every picture is made in (lib/images.ts). */
    images: ImageQueue;
    /** Uploads at once and per hour, per member (docs/decisions.md "Uploads are checked and cleaned"). */
    uploads: UploadLimits;
  }
}

/**
 * What keeps uploads from crowding out everything else: the picture queue, and each member's
 * upload limits, counted in Redis with REDIS_URL (every node shares them), else in this process.
 */
export const uploadsPlugin = fp(
  (app, _options, done) => {
    const { config } = app;
    app.decorate(
      'images',
      createImageQueue({
        workers: config.imageQueue.workers ?? defaultImageWorkers(),
        waiting: config.imageQueue.waiting,
      }),
    );
    const redis = app.redis.limits;
    app.decorate(
      'uploads',
      redis
        ? redisUploadLimits(redis, config.redisPrefix, config.uploadLimits, (error) =>
            app.log.warn({ err: error }, 'could not give back an upload place; its lease frees it'),
          )
        : memoryUploadLimits(config.uploadLimits),
    );
    done();
  },
  { name: 'orbit-uploads', dependencies: ['orbit-database', 'orbit-redis'] },
);
