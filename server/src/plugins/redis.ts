import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { FAIL_FAST, connectRedis } from '../lib/redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** With REDIS_URL: one connection for rate limits and locks, one for the socket adapter. */
    redis: { limits: Redis | undefined; events: Redis | undefined };
  }
}

/** How long a starting node waits for Redis before it serves without (an outage is not fatal). */
export const FIRST_CONNECT_MS = 2_000;

/**
 * Two connections, because the socket adapter holds a blocking read open on its own. Both fail
 * fast while Redis is down (docs/decisions.md "Rate limits fail closed when Redis is down"): a
 * count, a lock or a published event never waits for Redis to come back, so no request does.
 */
export const redisPlugin = fp(
  async (app) => {
    const url = app.config.redisUrl;
    const limits = url ? connectRedis(url, app.log, 'limits', FAIL_FAST) : undefined;
    // Publishing is fire and forget, but the adapter hands an event to this node's own sockets
    // only once Redis has taken it (or refused it): it must refuse at once.
    const events = url
      ? connectRedis(url, app.log, 'events', { ...FAIL_FAST, commandTimeout: undefined })
      : undefined;
    app.decorate('redis', { limits: limits?.client, events: events?.client });
    app.addHook('onClose', async () => {
      await Promise.all([limits?.close(), events?.close()]);
    });
    await Promise.all([
      limits?.firstAttempt(FIRST_CONNECT_MS),
      events?.firstAttempt(FIRST_CONNECT_MS),
    ]);
  },
  { name: 'orbit-redis', dependencies: ['orbit-database'] },
);
