import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  type Ack,
  CLIENT_EVENT_SCHEMAS,
  type ClientToServerEvents,
  type FriendEvent,
  type FriendEventPayload,
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
  present: boolean;
}

/** What one server node tells the others (through the adapter, with REDIS_URL). */
interface ServerSideEvents {
  /** These two members were blocked: each one's sockets leave the other's rooms. */
  'orbit:separate': (a: string, b: string) => void;
}

export type OrbitServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  ServerSideEvents,
  SocketData
>;
type OrbitSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface Realtime {
  io: OrbitServer;
  /** Disconnects the sockets opened with these sessions (after logout or a password change). */
  disconnectSessions(sessionIds: readonly string[]): void;
  /** Disconnects every socket of these members, whatever session opened it, on every node. */
  disconnectMembers(userIds: readonly string[]): void;
  /** Sends a friend event to both members' private rooms, on every server process. */
  publishFriendEvent(event: FriendEvent, payload: FriendEventPayload): void;
  /** Sends a friend event to one member's private room only (the blocker's, after a block). */
  friendEventTo(userId: string, event: FriendEvent, payload: FriendEventPayload): void;
  /**
   * Two members were blocked (docs/product.md "Blocking"): every socket of each, on every server
   * process, leaves the other's gallery and image rooms, so neither hears the other's gallery or
   * presence any more.
   */
  separate(a: string, b: string): void;
  /** Whether the member has a tab in presence right now, on any server process. */
  isOnline(userId: string): Promise<boolean>;
  /** Which of these members have a tab in presence right now, in one question to every process. */
  onlineAmong(userIds: readonly string[]): Promise<Set<string>>;
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
function reply(ack: unknown, result: Ack): void {
  if (typeof ack === 'function') (ack as (result: Ack) => void)(result);
}

export const userRoom = (userId: string) => `user:${userId}`;
const presenceRoom = (userId: string) => `presence:${userId}`;
export const galleryRoom = (ownerId: string) => `gallery:${ownerId}`;
export const imageRoom = (imageId: string) => `image:${imageId}`;
const MAX_ROOMS_PER_SOCKET = 64;

/** The payload of a client event when it fits its contract, else null. */
function payloadOf<E extends keyof typeof CLIENT_EVENT_SCHEMAS>(
  event: E,
  payload: unknown,
): z.infer<(typeof CLIENT_EVENT_SCHEMAS)[E]> | null {
  const parsed = z.safeParse(CLIENT_EVENT_SCHEMAS[event], payload);
  return parsed.success ? (parsed.data as z.infer<(typeof CLIENT_EVENT_SCHEMAS)[E]>) : null;
}
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

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

export interface RealtimeOptions {
  /** Proxies whose X-Forwarded-Proto/-Host name the page's origin at the handshake. */
  trust?: ProxyTrust | false;
  /** A dedicated connection for the cross-process adapter (REDIS_URL). */
  redis?: Redis | undefined;
  /** Called when a member's first tab joins presence or their last one leaves. */
  onPresenceChange?: (userId: string, online: boolean) => void;
  /**
   * The owner of the gallery (named by its owner's id) or the image a member asks to watch, as
   * that member may see them: undefined when there is no such member or image, or when its owner
   * and the member are blocked either way, alike. Without it a gallery's owner is the id given
   * and no image is found.
   * docs/decisions.md "A block stops live events at once, on every node"
   */
  watchedOwner?: WatchedOwner;
}

type WatchedOwner = (
  viewerId: string,
  kind: keyof typeof WATCH_REFUSED,
  id: string,
) => Promise<string | undefined>;

/**
 * What this node keeps of each of its own sockets: the owner of every image room it watches (so a
 * block knows which image rooms to leave), and the queue its room changes run in. Joins, leaves
 * and a block's separation run one after the other per socket, so a join whose block check ran
 * before a block committed is always followed by that block's leave, never overtaken by it.
 */
interface LocalSocket {
  imageOwners: Map<string, string>;
  serial: (work: () => Promise<void>) => Promise<void>;
}

/**
 * The refusal of a watch of what does not exist, and of what a block hides, in the same words: a
 * socket cannot tell one from the other.
 */
export const WATCH_REFUSED = {
  gallery: 'No such gallery.',
  image: 'No such image.',
} as const;

/** socket.io on the app's own HTTP server: websocket only, authenticated exactly like HTTP. */
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
          present: false,
        };
        next();
      },
      () => next(new Error('unauthorized')),
    );
  });

  const watchedOwner: WatchedOwner =
    options.watchedOwner ??
    ((_viewerId, kind, id) => Promise.resolve(kind === 'gallery' ? id : undefined));
  const local = new Map<string, LocalSocket>();

  /** This node's sockets of `userId` leave `otherId`'s gallery room and image rooms. */
  const separateHere = (userId: string, otherId: string) => {
    for (const id of io.of('/').adapter.rooms.get(userRoom(userId)) ?? []) {
      const socket = io.of('/').sockets.get(id);
      const state = local.get(id);
      if (!socket || !state) continue;
      void state.serial(async () => {
        const rooms = [galleryRoom(otherId)];
        for (const [imageId, ownerId] of state.imageOwners) {
          if (ownerId !== otherId) continue;
          rooms.push(imageRoom(imageId));
          state.imageOwners.delete(imageId);
        }
        for (const room of rooms) await socket.leave(room);
      });
    }
  };
  const separateBoth = (a: string, b: string) => {
    separateHere(a, b);
    separateHere(b, a);
  };
  if (options.redis) io.on('orbit:separate', separateBoth);

  const isOnline = async (userId: string) =>
    (await io.in(presenceRoom(userId)).fetchSockets()).length > 0;
  const onlineAmong = async (userIds: readonly string[]) => {
    if (userIds.length === 0) return new Set<string>();
    const sockets = await io.in(userIds.map(presenceRoom)).fetchSockets();
    return new Set(sockets.map((socket) => socket.data.userId));
  };

  /**
   * isOnline for presence bookkeeping inside socket handlers: with the Redis adapter the lookup asks
   * every process and can time out or fail, and a rejection there would be unhandled (and end the
   * process). A failed lookup is logged and answers undefined ("unknown").
   */
  const lookup = (userId: string) =>
    isOnline(userId).catch((error: unknown) => {
      app.log.warn({ err: error, userId }, 'presence lookup failed');
      return undefined;
    });

  /** Watchers of a member's gallery and images see them come and go (docs/product.md "Realtime", "Image viewer"). */
  const presenceChanged = (userId: string, online: boolean) => {
    io.to(galleryRoom(userId)).emit('presence:update', { userId, online });
    options.onPresenceChange?.(userId, online);
  };

  /** After a socket leaves presence, the member is offline only if no other tab anywhere remains. */
  const leavePresence = async (socket: OrbitSocket) => {
    if (!socket.data.present) return;
    socket.data.present = false;
    await socket.leave(presenceRoom(socket.data.userId));
    if ((await lookup(socket.data.userId)) === false) presenceChanged(socket.data.userId, false);
  };

  io.on('connection', (socket: OrbitSocket) => {
    const { userId, sessionId } = socket.data;
    // The server alone decides which private rooms a socket belongs to.
    void socket.join([userRoom(userId), sessionRoom(sessionId)]);
    endWithSession(socket, () => (deps.now ? deps.now() : new Date()).getTime());
    let queue: Promise<void> = Promise.resolve();
    const state: LocalSocket = {
      imageOwners: new Map(),
      serial: (work) => {
        const next = queue.then(work).catch((error: unknown) => {
          app.log.warn({ err: error, userId }, 'a room change of a socket failed');
        });
        queue = next;
        return next;
      },
    };
    local.set(socket.id, state);

    socket.on('presence:join', (payload, ack) => {
      if (payloadOf('presence:join', payload)?.userId !== userId) {
        reply(ack, { ok: false, error: 'You can only join presence as yourself.' });
        return;
      }
      const wasPresent = socket.data.present;
      socket.data.present = true;
      void (async () => {
        const before = wasPresent || (await lookup(userId)) !== false;
        await socket.join(presenceRoom(userId));
        if (!before) presenceChanged(userId, true);
        reply(ack, { ok: true });
      })();
    });

    socket.on('presence:leave', (ack) => {
      void leavePresence(socket).then(() => reply(ack, { ok: true }));
    });

    /**
     * Anyone signed in may watch a gallery or an image that exists, except one whose owner and
     * they are blocked either way (docs/product.md "Blocking"), refused alike; a socket watches a
     * bounded number of rooms. The lookup (one statement, the block inside it) and the join run in
     * the socket's queue; the owner's presence is asked after it.
     */
    const watch = (
      kind: keyof typeof WATCH_REFUSED,
      id: string | null,
      ack: unknown,
      onJoin?: (ownerId: string) => void,
    ) => {
      if (!id) return reply(ack, { ok: false, error: 'Name the gallery or image to watch.' });
      const room = kind === 'gallery' ? galleryRoom(id) : imageRoom(id);
      let ownerId: string | undefined;
      // Until the join is done, the answer is a failure (a lookup that failed included).
      let refusal: string | null = 'Could not watch that now. Try again.';
      void state
        .serial(async () => {
          if (socket.rooms.size >= MAX_ROOMS_PER_SOCKET && !socket.rooms.has(room)) {
            refusal = 'Watching too many galleries at once.';
            return;
          }
          ownerId =
            kind === 'gallery' && id === userId ? userId : await watchedOwner(userId, kind, id);
          if (!ownerId) {
            refusal = WATCH_REFUSED[kind];
            return;
          }
          await socket.join(room);
          onJoin?.(ownerId);
          refusal = null;
        })
        .then(async () => {
          if (refusal) return reply(ack, { ok: false, error: refusal });
          const online = ownerId ? await lookup(ownerId) : undefined;
          reply(ack, online === undefined ? { ok: true } : { ok: true, online });
        });
    };
    socket.on('gallery:join', (payload, ack) => {
      watch('gallery', payloadOf('gallery:join', payload)?.ownerId ?? null, ack);
    });
    socket.on('image:join', (payload, ack) => {
      const imageId = payloadOf('image:join', payload)?.imageId ?? null;
      watch('image', imageId, ack, (ownerId) => {
        if (imageId) state.imageOwners.set(imageId, ownerId);
      });
    });
    socket.on('gallery:leave', (payload, ack) => {
      const ownerId = payloadOf('gallery:leave', payload)?.ownerId;
      void state
        .serial(async () => {
          if (ownerId) await socket.leave(galleryRoom(ownerId));
        })
        .then(() => reply(ack, { ok: true }));
    });
    socket.on('image:leave', (payload, ack) => {
      const imageId = payloadOf('image:leave', payload)?.imageId;
      void state
        .serial(async () => {
          if (!imageId) return;
          state.imageOwners.delete(imageId);
          await socket.leave(imageRoom(imageId));
        })
        .then(() => reply(ack, { ok: true }));
    });

    socket.on('disconnect', () => {
      local.delete(socket.id);
      if (!socket.data.present) return;
      socket.data.present = false;
      // The room is already left on disconnect; only the "anyone left?" question remains.
      void lookup(userId).then((online) => {
        if (online === false) presenceChanged(userId, false);
      });
    });
  });

  const realtime: Realtime = {
    io,
    disconnectSessions(sessionIds) {
      for (const id of sessionIds) io.in(sessionRoom(id)).disconnectSockets(true);
    },
    disconnectMembers(userIds) {
      if (userIds.length > 0) io.in(userIds.map(userRoom)).disconnectSockets(true);
    },
    publishFriendEvent(event, payload) {
      io.to([userRoom(payload.fromUserId), userRoom(payload.toUserId)]).emit(event, payload);
    },
    friendEventTo(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload);
    },
    separate(a, b) {
      separateBoth(a, b);
      // The other nodes do the same for their own sockets (the in-memory adapter has no others).
      if (options.redis) io.serverSideEmit('orbit:separate', a, b);
    },
    isOnline,
    onlineAmong,
  };
  app.decorate('realtime', realtime);
  // Before the HTTP server closes: it waits for every connection to end, and open sockets only
  // end when socket.io closes them.
  app.addHook('preClose', async () => {
    await io.close();
  });
  return realtime;
}

/** socket.io for the app's members, created once the sessions and Redis are there. */
export const realtimePlugin = fp<Pick<RealtimeOptions, 'trust' | 'watchedOwner'>>(
  async (app, options) => {
    const events = app.redis.events;
    await registerRealtime(app, app.sessions, app.config, {
      ...options,
      redis: events && forSocketAdapter(events),
    });
  },
  { name: 'orbit-realtime', dependencies: ['orbit-auth', 'orbit-redis'] },
);
