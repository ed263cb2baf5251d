import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { connectRedis } from '../lib/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** With REDIS_URL: one connection for rate limits and locks, one for the socket adapter. */
    redis: { limits: Redis | undefined; events: Redis | undefined };
  }
}

/** Two connections, because the socket adapter holds a blocking read open on its own. */
export const redisPlugin = fp(
  (app, _options, done) => {
    const url = app.config.redisUrl;
    const limits = url ? connectRedis(url, app.log, 'limits') : undefined;
    const events = url ? connectRedis(url, app.log, 'events') : undefined;
    app.decorate('redis', { limits: limits?.client, events: events?.client });
    app.addHook('onClose', async () => {
      await Promise.all([limits?.close(), events?.close()]);
    });
    done();
  },
  { name: 'orbit-redis', dependencies: ['orbit-database'] },
);
