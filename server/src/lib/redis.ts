import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection that reports outages to the log once each (ioredis keeps reconnecting on
 * its own; without a listener it prints every failed attempt to stderr) and that can always be
 * closed, reachable or not.
 */
export function connectRedis(
  url: string,
  log: FastifyBaseLogger,
  role: string,
  options: RedisOptions = {},
) {
  const client = new Redis(url, options);
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ err: error, redis: role }, 'Redis is unreachable; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ redis: role }, 'Redis is reachable again');
  });
  return {
    client,
    async close() {
      // QUIT waits for a live connection (retrying for seconds); without one, just drop it.
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/** Marks every command's outcome as seen; whoever awaits it still gets the rejection. */
function neverUnhandled(client: Redis): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, stream) => {
    command.promise.catch(() => undefined);
    return send(command, stream);
  };
}

/**
 * Prepares the socket.io adapter's connection. The adapter publishes and subscribes (on copies
 * of this connection it opens itself) without handling a refusal: a SUBSCRIBE cut off by a
 * shutdown, or a PUBLISH during an outage, would be an unhandled rejection, which ends the process.
 * Its commands are marked as handled here, on the connection and on every copy.
 */
export function forSocketAdapter(client: Redis): Redis {
  neverUnhandled(client);
  const duplicate = client.duplicate.bind(client);
  client.duplicate = (...args: Parameters<Redis['duplicate']>) => {
    const copy = duplicate(...args);
    neverUnhandled(copy);
    return copy;
  };
  return client;
}
