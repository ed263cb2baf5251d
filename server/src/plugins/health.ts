import type { FastifyInstance } from 'fastify';

/** One dependency the node needs to serve members; resolves when it answers, throws when not. */
export type ReadinessCheck = () => Promise<unknown>;

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
 * dependency answers (for load balancers): 200 `{status: 'ready', checks}`, or 503
 * `{status: 'unavailable', down, checks}` naming what is down. Reasons go to the log, not the
 * answer, which may be public.
 */
export function registerHealth(app: FastifyInstance, checks: Record<string, ReadinessCheck>) {
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
}
