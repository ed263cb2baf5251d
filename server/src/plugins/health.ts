import fp from 'fastify-plugin';
import { sql } from 'kysely';

/** One dependency the node needs to serve members; resolves when it answers, throws when not. */
type ReadinessCheck = () => Promise<unknown>;

/** A dependency that has not answered by then counts as down (a hung Redis must not hang the probe). */
const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(check: ReadinessCheck): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([check(), late]).finally(() => clearTimeout(timer));
}

/**
 * `GET /healthz`: the process is alive and serving (for restarts). `GET /readyz`: every
 * dependency answers (for load balancers): the database, Redis when set, and the media store;
 * 200 `{status: 'ready', checks}`, or 503 `{status: 'unavailable', down, checks}` naming what is
 * down. Reasons go to the log, not the answer, which may be public.
 */
export const healthPlugin = fp(
  (app, _options, done) => {
    const limits = app.redis.limits;
    const checks: Record<string, ReadinessCheck> = {
      database: () => sql`select 1`.execute(app.db),
      ...(limits ? { redis: () => limits.ping() } : {}),
      media: () => app.media.store.check(),
    };

    app.get('/healthz', () => ({ status: 'ok' }));

    app.get('/readyz', async (request, reply) => {
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await withTimeout(check);
            return [name, 'ok'] as const;
          } catch (error) {
            request.log.warn({ dependency: name, err: error }, `${name} is not ready`);
            return [name, 'down'] as const;
          }
        }),
      );
      const states = Object.fromEntries(results);
      const down = results.filter(([, state]) => state === 'down').map(([name]) => name);
      if (down.length === 0) return { status: 'ready', checks: states };
      return reply.status(503).send({ status: 'unavailable', down, checks: states });
    });
    done();
  },
  { name: 'orbit-health', dependencies: ['orbit-database', 'orbit-redis', 'orbit-media'] },
);
