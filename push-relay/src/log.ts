import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { PRETTY_OPTIONS } from '../../src/contracts/logging.ts';

export type { Logger };
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** An error as a log field: the parts that explain it, never a push endpoint's secrets. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(code === undefined ? {} : { code }),
    ...(statusCode === undefined ? {} : { statusCode }),
  };
}

/**
 * The relay's pino logger: JSON lines on stdout (or `destination`). Errors under `err` keep only
 * their name, message and codes: a web-push error also carries the endpoint and its answer.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  const options = { name: 'push-relay', level, serializers: { err: errorFields } };
  return destination ? pino(options, destination) : pino(options);
}

/** The same entries made readable (pino-pretty) for a person at a terminal; stdout by default. */
export function prettyStream(destination?: NodeJS.WritableStream): DestinationStream {
  return pretty({ ...PRETTY_OPTIONS, ...(destination ? { destination } : {}) });
}
