/**
 * How the server and push-relay write their logs: readable lines for a person at a terminal, JSON
 * lines (one object each, pino's fields) everywhere else, so log shippers keep parsing them.
 * `LOG_FORMAT` overrides the choice. No runtime dependencies: both processes import it.
 */

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** `LOG_FORMAT` when it is set; otherwise pretty at a terminal (stdout is a TTY), JSON elsewhere. */
export function chooseLogFormat(setting: LogFormat | undefined, isTty: boolean): LogFormat {
  return setting ?? (isTty ? 'pretty' : 'json');
}

/**
 * pino-pretty's settings for both processes: the clock time, no pid or host (one machine, a person
 * reading), a request as its message alone (`GET /api/auth/me 200 1.4 ms`: its `request` fields
 * and `reqId` are for log shippers), and synchronous writes so the last lines before an exit are not lost. Colours follow
 * pino-pretty's own rule (a colour terminal, FORCE_COLOR, NO_COLOR).
 */
export const PRETTY_OPTIONS = {
  translateTime: 'SYS:HH:MM:ss',
  ignore: 'pid,hostname,reqId,request',
  sync: true,
} as const;

/**
 * The address a person on this machine opens: the listening port on localhost when the server
 * listens on every interface or on 127.0.0.1 (the default: the page's origin the app allows is
 * localhost's), otherwise on the host it was given (IPv6 in brackets).
 */
export function localUrl(host: string, port: number): string {
  const localhost = ['127.0.0.1', '0.0.0.0', '::', '[::]', ''].includes(host);
  const name = localhost ? 'localhost' : host;
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
}
