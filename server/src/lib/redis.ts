import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import { Unavailable } from '../errors.ts';

/**
 * Commands a request waits for (rate-limit counts, the sweep's lock, the readiness ping) fail at
 * once while Redis is unreachable instead of queueing for reconnection (ioredis' default queues
 * and retries for about ten seconds), and after this long when Redis is reachable but silent.
 */
export const REQUEST_COMMAND_TIMEOUT_MS = 500;

/** Connection options for a connection whose commands a request waits for. */
export const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: REQUEST_COMMAND_TIMEOUT_MS,
};

/** What a rate-limited route answers when its attempts cannot be counted. */
const CANNOT_COUNT = 'Try again in a moment.';

/**
 * docs/decisions.md "Rate limits fail closed when Redis is down": a count Redis could not take
 * refuses the request with 503 `Try again in a moment.`, never a 500 and never a skipped limit.
 */
export function cannotCount(): never {
  throw new Unavailable(CANNOT_COUNT);
}

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
    /**
     * Resolves once the first connection attempt has ended, well or not, and at the latest after
     * `ms`: a node starts with Redis down, but never answers before a reachable Redis is ready.
     */
    firstAttempt(ms: number): Promise<void> {
      if (client.status === 'ready') return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          client.off('ready', done);
          client.off('error', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        client.once('ready', done);
        client.once('error', done);
      });
    },
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
  // The copies hold the adapter's blocking read, which it sends again as soon as one fails: they
  // wait for Redis to come back instead of failing fast (a read failing at once would loop).
  client.duplicate = (override?: Partial<RedisOptions>) => {
    const copy = duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
      ...override,
    });
    neverUnhandled(copy);
    return copy;
  };
  return client;
}

/** The count of one client on one route: INCR, with the window set by the first attempt. */
const COUNT_ATTEMPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {current, tonumber(ARGV[1])}
end
return {current, redis.call('PTTL', KEYS[1])}
`;

interface CountingRedis extends Redis {
  orbitCountAttempt(key: string, windowMs: number): Promise<[number, number]>;
}

/**
 * @fastify/rate-limit's store in Redis, under `nameSpace` and with its key shape (the route's
 * method and URL, then the client), whose failure is a 503 `Try again in a moment.`: a limited
 * route fails closed, since attempts that cannot be counted cannot be limited
 * (docs/decisions.md "Rate limits fail closed when Redis is down").
 */
export function redisLimitStore(client: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  client.defineCommand('orbitCountAttempt', { numberOfKeys: 1, lua: COUNT_ATTEMPT });
  const counting = client as CountingRedis;
  class RedisLimitStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(_options?: unknown, prefix = nameSpace) {
      this.prefix = prefix;
    }
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      counting.orbitCountAttempt(this.prefix + key, timeWindow).then(
        ([current, ttl]) => callback(null, { current, ttl }),
        () => callback(new Unavailable(CANNOT_COUNT)),
      );
    }
    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      return new RedisLimitStore(
        undefined,
        `${this.prefix}${route?.method ?? ''}${route?.url ?? ''}-`,
      );
    }
  }
  return RedisLimitStore;
}
