import path from 'node:path';
import fp from 'fastify-plugin';
import { type Media, type MediaStore, createMedia, createMediaStore } from '../media/index.ts';
import { createMediaSweeper, sweepIncoming, sweepStore } from '../media/sweep.ts';

declare module 'fastify' {
  interface FastifyInstance {
    media: Media;
    /** This node's folder for request bodies being received (multipart), swept separately. */
    incomingDir: string;
  }
}

/**
 * The media store (disk or bucket) and its sweep: pictures a crash left behind (written, but no row
 * names them) and abandoned request bodies go once they are old enough to be stray, at start and
 * then periodically.
 */
export const mediaPlugin = fp(
  async (app) => {
    const { config, db } = app;
    const store: MediaStore = await createMediaStore(config);
    // Request bodies stay on this node's disk whichever store keeps the pictures.
    const incomingDir = path.join(config.uploadsDir, '.incoming');
    app.decorate('media', createMedia(store, config.mediaPublicUrl, app.log));
    app.decorate('incomingDir', incomingDir);

    const sweeper = createMediaSweeper({
      sweep: async () => ({ objects: await sweepStore({ db, store }), incoming: 0 }),
      // Every node's request bodies are on its own disk, so each sweeps its own on every turn.
      local: () => sweepIncoming(incomingDir),
      intervalMs: config.media.sweepIntervalMs,
      redis: app.redis.limits,
      lockKey: `${config.redisPrefix}-media-sweep`,
      log: app.log,
    });
    app.addHook('onReady', (done) => {
      store
        .check()
        .catch((error: unknown) => app.log.error({ err: error }, 'media store unusable'));
      sweeper.start();
      done();
    });
    // Runs before the Redis and database hooks (onClose hooks run last-added first).
    app.addHook('onClose', async () => {
      await sweeper.stop();
      store.close();
    });
  },
  { name: 'orbit-media', dependencies: ['orbit-database', 'orbit-redis'] },
);
