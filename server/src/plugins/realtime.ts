import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  type Ack,
  CLIENT_EVENT_SCHEMAS,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../../../src/contracts/realtime.ts';
import { z } from '../../../src/contracts/zod.ts';
import type { Config } from '../config.ts';
import type { ProxyTrust } from '../lib/proxy.ts';
import { forSocketAdapter } from '../lib/redis.ts';
import { bearerToken } from '../lib/sessionCookie.ts';
import { type SessionDeps, authenticate } from '../members/sessions.ts';
import { isAllowedOrigin } from './security.ts';

interface SocketData {
  userId: string;
  sessionId: string;
  /** When the session the socket was opened with ends; the socket ends with it. */
  expiresAt: number;
}

/** What one server node tells the others (through the adapter, with REDIS_URL). */
interface ServerSideEvents {
  /** These two members were blocked: each one's sockets leave the other's rooms (watching.ts). */
  'orbit:separate': (a: string, b: string) => void;
}

export type OrbitServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  ServerSideEvents,
  SocketData
>;
export type OrbitSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface Realtime {
  io: OrbitServer;
  /** Whether an adapter carries rooms and server-side events to the other nodes (REDIS_URL). */
  acrossNodes: boolean;
  /** Disconnects the sockets opened with these sessions (after logout or a password change). */
  disconnectSessions(sessionIds: readonly string[]): void;
  /** Disconnects every socket of these members, whatever session opened it, on every node. */
  disconnectMembers(userIds: readonly string[]): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

/**
 * Answers an acknowledgement only when the client asked for one. The argument comes off the wire: a
 * client can put anything in its place, and calling a non-function there would throw inside
 * socket.io's dispatch, where nothing catches it and the process dies.
 */
export function reply(ack: unknown, result: Ack): void {
  if (typeof ack === 'function') (ack as (result: Ack) => void)(result);
}

/** The private room of each member: every socket of theirs, on every node, and only theirs. */
export const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** The payload of a client event when it fits its contract, else null. */
export function payloadOf<E extends keyof typeof CLIENT_EVENT_SCHEMAS>(
  event: E,
  payload: unknown,
): z.infer<(typeof CLIENT_EVENT_SCHEMAS)[E]> | null {
  const parsed = z.safeParse(CLIENT_EVENT_SCHEMAS[event], payload);
  return parsed.success ? (parsed.data as z.infer<(typeof CLIENT_EVENT_SCHEMAS)[E]>) : null;
}

/** The longest wait one Node timer holds (about 24.8 days); a remembered session waits in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Disconnects the socket when its session ends (docs/decisions.md "Sockets end with their
 * session"), as logout does: nothing is sent first, and the client asks the server who it is.
 * One timer per socket, cleared when the socket goes; sessions do not slide, so the end known at
 * the handshake is the end.
 */
function endWithSession(socket: OrbitSocket, now: () => number): void {
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const left = socket.data.expiresAt - now();
    if (left <= 0) {
      socket.disconnect(true);
      return;
    }
    timer = setTimeout(check, Math.min(left, MAX_TIMER_MS));
  };
  socket.on('disconnect', () => clearTimeout(timer));
  check();
}

interface RealtimeOptions {
  /** Proxies whose X-Forwarded-Proto/-Host name the page's origin at the handshake. */
  trust?: ProxyTrust | false;
  /** A dedicated connection for the cross-process adapter (REDIS_URL). */
  redis?: Redis | undefined;
}

/**
 * socket.io on the app's own HTTP server: websocket only, authenticated exactly like HTTP; each
 * socket joins its member's and its session's private rooms and ends with its session.
 */
async function registerRealtime(
  app: FastifyInstance,
  deps: SessionDeps,
  config: Config,
  options: RealtimeOptions = {},
): Promise<Realtime> {
  const originPolicy = { allowed: config.appOrigins, trust: options.trust ?? false };
  const io: OrbitServer = new Server(app.server, {
    path: '/socket.io',
    transports: ['websocket'],
    maxHttpBufferSize: 16 * 1024,
    cors: { origin: config.appOrigins, credentials: true },
    // The same rule as HTTP: the page's own origin (through a trusted proxy too) or APP_ORIGIN.
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, !origin || isAllowedOrigin(origin, request, originPolicy));
    },
  });
  if (options.redis) {
    const { createAdapter } = await import('@socket.io/redis-streams-adapter');
    // Broadcasts that want acknowledgements (the relay's events) go through pub/sub, which
    // every database of a Redis server shares: the channel prefix keeps deployments apart.
    const prefix = `${config.redisPrefix}:socket.io`;
    io.adapter(createAdapter(options.redis, { streamName: prefix, channelPrefix: prefix }));
  }

  io.use((socket, next) => {
    const cookies = app.parseCookie(socket.handshake.headers.cookie ?? '');
    const fromAuth = (socket.handshake.auth as { token?: unknown }).token;
    const token =
      (typeof fromAuth === 'string' && fromAuth ? fromAuth : undefined) ??
      bearerToken(socket.handshake.headers.authorization) ??
      cookies[config.session.cookie];
    if (!token) return next(new Error('unauthorized'));
    authenticate(deps, token).then(
      (auth) => {
        if (!auth) return next(new Error('unauthorized'));
        socket.data = {
          userId: auth.user.id,
          sessionId: auth.sessionId,
          expiresAt: auth.expiresAt.getTime(),
        };
        next();
      },
      () => next(new Error('unauthorized')),
    );
  });

  io.on('connection', (socket: OrbitSocket) => {
    // The server alone decides which private rooms a socket belongs to.
    void socket.join([userRoom(socket.data.userId), sessionRoom(socket.data.sessionId)]);
    endWithSession(socket, () => (deps.now ? deps.now() : new Date()).getTime());
  });

  const realtime: Realtime = {
    io,
    acrossNodes: Boolean(options.redis),
    disconnectSessions(sessionIds) {
      for (const id of sessionIds) io.in(sessionRoom(id)).disconnectSockets(true);
    },
    disconnectMembers(userIds) {
      if (userIds.length > 0) io.in(userIds.map(userRoom)).disconnectSockets(true);
    },
  };
  app.decorate('realtime', realtime);
  // Before the HTTP server closes: it waits for every connection to end, and open sockets only
  // end when socket.io closes them.
  app.addHook('preClose', async () => {
    await io.close();
  });
  return realtime;
}

/**
 * socket.io for the app's members, created once the sessions and Redis are there: the handshake
 * and each socket's private rooms. Presence (`plugins/presence.ts`), watching
 * (`plugins/watching.ts`) and each feature's live events (`liveEvents`) build on it.
 */
export const realtimePlugin = fp<Pick<RealtimeOptions, 'trust'>>(
  async (app, options) => {
    const events = app.redis.events;
    await registerRealtime(app, app.sessions, app.config, {
      ...options,
      redis: events && forSocketAdapter(events),
    });
  },
  { name: 'orbit-realtime', dependencies: ['orbit-auth', 'orbit-redis'] },
);

/**
 * A feature's live events as a plugin: `build` makes them from the socket server (and the app's
 * decorations that `dependencies` name), and the app carries them as `app[decoration]`. Every
 * feature that tells members' tabs what happened declares its events this way.
 */
export function liveEvents<K extends keyof FastifyInstance>(
  decoration: K,
  build: (io: OrbitServer, app: FastifyInstance) => FastifyInstance[K],
  plugin: { name: string; dependencies?: string[] },
) {
  return fp(
    (app, _options, done) => {
      // `build` answers the decoration's own type; decorate cannot check a generic key's value.
      const events: unknown = build(app.realtime.io, app);
      app.decorate(decoration as string, events);
      done();
    },
    { name: plugin.name, dependencies: ['orbit-realtime', ...(plugin.dependencies ?? [])] },
  );
}
