import type { RelaySocket } from './channel.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './log.ts';

/** After a refused handshake, how long before asking again (the secret may be fixed meanwhile). */
const REFUSED_RETRY_MS = 30_000;
/**
 * Started beside the server (`npm start`), the relay usually tries before the server listens; a
 * server still missing this long after the relay started is worth a warning.
 */
const START_GRACE_MS = 10_000;

export interface ConnectionOptions {
  socket: RelaySocket;
  serverUrl: string;
  clock: Clock;
  log: Logger;
  stopping: AbortSignal;
  connected(): void;
  disconnected(reason: string): void;
  /** The server refused the handshake (a wrong RELAY_SECRET). */
  refused(message: string): void;
}

/**
 * Follows the socket's connection to the server: logs an outage once, and after a refused
 * handshake tries again later. Answers what cancels a retry still waiting.
 */
export function followConnection(o: ConnectionOptions): () => void {
  const { socket, log, clock } = o;
  const server = o.serverUrl;
  const startedAt = clock.now();
  let reachable = true;
  let everConnected = false;
  let cancelRetry = () => {};
  socket.on('connect', () => {
    reachable = true;
    everConnected = true;
    log.info({ server }, 'connected to the server');
    o.connected();
  });
  socket.on('disconnect', (reason) => {
    log[reason === 'io client disconnect' ? 'info' : 'warn'](
      { server, reason },
      'disconnected from the server',
    );
    o.disconnected(reason);
    if (reason === 'io server disconnect' && !o.stopping.aborted) socket.connect();
  });
  socket.on('connect_error', (error) => {
    if (socket.active) {
      // Once per outage at warn; every further attempt only at debug. A server still starting
      // is no outage.
      if (!everConnected && clock.now() - startedAt < START_GRACE_MS) {
        log.debug({ server, err: error }, 'waiting for the server to start');
        return;
      }
      log[reachable ? 'warn' : 'debug'](
        { server, err: error },
        'cannot reach the server; retrying',
      );
      reachable = false;
      return;
    }
    log.error(
      { server, err: error },
      `the server refused the relay (check RELAY_SECRET); trying again in ${REFUSED_RETRY_MS / 1000} s`,
    );
    o.refused(error.message);
    cancelRetry = clock.after(REFUSED_RETRY_MS, () => socket.connect());
  });
  return () => cancelRetry();
}
