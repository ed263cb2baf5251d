import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import type {
  ClientToServerEvents,
  FriendEvent,
  FriendEventPayload,
  ServerToClientEvents,
} from '../../../src/contracts/realtime.ts';
import type { Config } from '../config.ts';
import { type AuthDeps, authenticate } from '../features/auth/service.ts';
import { bearerToken } from './auth.ts';

export interface SocketData {
  userId: string;
  sessionId: string;
  present: boolean;
}

export type OrbitServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type OrbitSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface Realtime {
  io: OrbitServer;
  /** Disconnects the sockets opened with these sessions (after logout or a password change). */
  disconnectSessions(sessionIds: readonly string[]): void;
  /** Sends a friend event to both members' private rooms, on every server process. */
  publishFriendEvent(event: FriendEvent, payload: FriendEventPayload): void;
  /** Whether the member has a tab in presence right now, on any server process. */
  isOnline(userId: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export const userRoom = (userId: string) => `user:${userId}`;
export const presenceRoom = (userId: string) => `presence:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

export interface RealtimeOptions {
  /** A dedicated connection for the cross-process adapter (REDIS_URL). */
  redis?: Redis | undefined;
  /** Called when a member's first tab joins presence or their last one leaves. */
  onPresenceChange?: (userId: string, online: boolean) => void;
}

/** socket.io on the app's own HTTP server: websocket only, authenticated exactly like HTTP. */
export async function registerRealtime(
  app: FastifyInstance,
  deps: AuthDeps,
  config: Config,
  options: RealtimeOptions = {},
): Promise<Realtime> {
  const io: OrbitServer = new Server(app.server, {
    path: '/socket.io',
    transports: ['websocket'],
    maxHttpBufferSize: 16 * 1024,
    cors: { origin: config.appOrigins, credentials: true },
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      const secure = (request.socket as { encrypted?: boolean }).encrypted === true;
      const own = `${secure ? 'https' : 'http'}://${request.headers.host ?? ''}`;
      callback(null, !origin || origin === own || config.appOrigins.includes(origin));
    },
  });
  if (options.redis) {
    const { createAdapter } = await import('@socket.io/redis-streams-adapter');
    io.adapter(createAdapter(options.redis, { streamName: 'orbit:socket.io' }));
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
        socket.data = { userId: auth.user.id, sessionId: auth.sessionId, present: false };
        next();
      },
      () => next(new Error('unauthorized')),
    );
  });

  const isOnline = async (userId: string) => (await io.in(presenceRoom(userId)).fetchSockets()).length > 0;

  /** After a socket leaves presence, the member is offline only if no other tab anywhere remains. */
  const leavePresence = async (socket: OrbitSocket) => {
    if (!socket.data.present) return;
    socket.data.present = false;
    await socket.leave(presenceRoom(socket.data.userId));
    if (!(await isOnline(socket.data.userId))) options.onPresenceChange?.(socket.data.userId, false);
  };

  io.on('connection', (socket: OrbitSocket) => {
    const { userId, sessionId } = socket.data;
    // The server alone decides which private rooms a socket belongs to.
    void socket.join([userRoom(userId), sessionRoom(sessionId)]);

    socket.on('presence:join', (payload, ack) => {
      const claimed = typeof payload === 'object' && payload !== null ? payload.userId : undefined;
      if (claimed !== userId) {
        ack?.({ ok: false, error: 'You can only join presence as yourself.' });
        return;
      }
      const wasPresent = socket.data.present;
      socket.data.present = true;
      void (async () => {
        const before = wasPresent || (await isOnline(userId));
        await socket.join(presenceRoom(userId));
        if (!before) options.onPresenceChange?.(userId, true);
        ack?.({ ok: true });
      })();
    });

    socket.on('presence:leave', (ack) => {
      void leavePresence(socket).then(() => {
        if (typeof ack === 'function') ack({ ok: true });
      });
    });

    socket.on('disconnect', () => {
      if (!socket.data.present) return;
      socket.data.present = false;
      // The room is already left on disconnect; only the "anyone left?" question remains.
      void isOnline(userId).then((online) => {
        if (!online) options.onPresenceChange?.(userId, false);
      });
    });
  });

  const realtime: Realtime = {
    io,
    disconnectSessions(sessionIds) {
      for (const id of sessionIds) io.in(sessionRoom(id)).disconnectSockets(true);
    },
    publishFriendEvent(event, payload) {
      io.to([userRoom(payload.fromUserId), userRoom(payload.toUserId)]).emit(event, payload);
    },
    isOnline,
  };
  app.decorate('realtime', realtime);
  app.addHook('onClose', async () => {
    await io.close();
  });
  return realtime;
}
