import type { FastifyInstance } from 'fastify';

/**
 * Runs `sweep` every `periodMs` while the app is open, removing rows that have run out; a failed
 * turn is logged as `what` failed and the next one tries again. The timer keeps no process alive.
 */
export function sweepEvery(
  app: FastifyInstance,
  periodMs: number,
  what: string,
  sweep: () => Promise<unknown>,
): void {
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => app.log.warn({ err: error }, `${what} failed`));
  }, periodMs);
  timer.unref();
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
}
