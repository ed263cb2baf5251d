import {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import pretty from 'pino-pretty';
import { PRETTY_OPTIONS } from '../../../src/contracts/logging.ts';
import type { Config } from '../config.ts';
import { routeOf } from './route.ts';

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

/**
 * One line per answered request, its message the summary a person reads (`GET /api/auth/me 200
 * 1.4 ms`) and its `request` fields the same for log shippers: method, route (the pattern, never a
 * member's name or a query), status and milliseconds, under the request's `reqId`. At `error` with
 * the error when the answer failed to go out, else at `info`. Fastify's own lines (`incoming
 * request`, `request completed`, `Route … not found`) are not written: this one says it all.
 */
class RequestLog extends LogController {
  override incomingRequest() {}

  override routeNotFound() {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const fields = {
      method: request.method,
      route: routeOf(request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    const summary = `${fields.method} ${fields.route} ${fields.status} ${fields.ms} ms`;
    if (error) reply.log.error({ request: fields, err: error }, summary);
    else reply.log.info({ request: fields }, summary);
  }
}

export const requestLog = () => new RequestLog();
