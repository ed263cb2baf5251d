import os from 'node:os';
import pretty from 'pino-pretty';
import { PRETTY_OPTIONS } from '../../src/contracts/logging.ts';

/** pino's level numbers, so the relay's lines read like the server's. */
const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LogLevel = keyof typeof LEVELS | 'silent';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Fields = Record<string, unknown>;
type Write = (fields: Fields | string, message?: string) => void;

export interface Logger {
  error: Write;
  warn: Write;
  info: Write;
  debug: Write;
}

/** An error as a log field: the parts that explain it, never a push endpoint's secrets. */
export function errorFields(error: unknown): Fields {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(code === undefined ? {} : { code }),
    ...(statusCode === undefined ? {} : { statusCode }),
  };
}

/** One JSON object per line on stdout (or `sink`), pino-compatible fields. */
export function createLogger(
  level: LogLevel = 'info',
  sink: (line: string) => void = (line) => process.stdout.write(line),
): Logger {
  const threshold = level === 'silent' ? Infinity : LEVELS[level];
  const base = { pid: process.pid, hostname: os.hostname(), name: 'push-relay' };
  const writer =
    (name: keyof typeof LEVELS): Write =>
    (fields, message) => {
      if (LEVELS[name] < threshold) return;
      const [extra, msg]: [Fields, string | undefined] =
        typeof fields === 'string' ? [{}, fields] : [fields, message];
      const err = extra.err === undefined ? {} : { err: errorFields(extra.err) };
      const entry = { level: LEVELS[name], time: Date.now(), ...base, ...extra, ...err, msg };
      sink(`${JSON.stringify(entry)}\n`);
    };
  return {
    error: writer('error'),
    warn: writer('warn'),
    info: writer('info'),
    debug: writer('debug'),
  };
}

/**
 * A sink that makes the JSON lines readable (pino-pretty), for a person at a terminal; stdout
 * unless another destination is given.
 */
export function prettySink(destination?: NodeJS.WritableStream): (line: string) => void {
  const stream = pretty({ ...PRETTY_OPTIONS, ...(destination ? { destination } : {}) });
  return (line) => {
    stream.write(line);
  };
}
