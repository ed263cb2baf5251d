import type { FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';
import { PRETTY_OPTIONS } from '../../../src/contracts/logging.ts';
import type { Config } from '../config.ts';

/**
 * The server's pino settings: JSON lines on stdout, or the same entries made readable through
 * pino-pretty when LOG_FORMAT (or a terminal) says so. Secrets in headers are never written.
 */
export function loggerOptions(
  config: Config,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    ...(config.logFormat === 'pretty' ? { stream: pretty(PRETTY_OPTIONS) } : {}),
  };
}
