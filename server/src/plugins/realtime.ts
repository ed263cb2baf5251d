import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Config } from '../config.ts';
import { type AuthDeps, authenticate } from '../features/auth/service.ts';
import { bearerToken } from './auth.ts';

export interface SocketData {
  userId: string;
  sessionId: string;
}

export interface Realtime {
  io: Server;
  /** Disconnects the sockets opened with these sessions (after logout or a password change). */
  disconnectSessions(sessionIds: readonly string[]): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

export const userRoom = (userId: string) => `user:${userId}`;

/** socket.io on the app's own HTTP server: websocket only, authenticated exactly like HTTP. */
export function registerRealtime(app: FastifyInstance, deps: AuthDeps, config: Config): Realtime {
  const io = new Server(app.server, {
    path: '/socket.io',
    transports: ['websocket'],
    maxHttpBufferSize: 16 * 1024,
    cors: { origin: config.appOrigins, credentials: true },
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      const own = `${(request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${request.headers.host ?? ''}`;
      callback(null, !origin || origin === own || config.appOrigins.includes(origin));
    },
  });

  io.use((socket, next) => {
    const cookies = app.parseCookie(socket.handshake.headers.cookie ?? '');
    const fromAuth = (socket.handshake.auth as { token?: unknown }).token;
    const token =
      (typeof fromAuth === 'string' ? fromAuth : undefined) ??
      bearerToken(socket.handshake.headers.authorization) ??
      cookies[config.session.cookie];
    if (!token) return next(new Error('unauthorized'));
    authenticate(deps, token).then(
      (auth) => {
        if (!auth) return next(new Error('unauthorized'));
        const data: SocketData = { userId: auth.user.id, sessionId: auth.sessionId };
        socket.data = data;
        next();
      },
      () => next(new Error('unauthorized')),
    );
  });

  io.on('connection', (socket: Socket) => {
    const data = socket.data as SocketData;
    // The server alone decides which private room a socket belongs to.
    void socket.join([userRoom(data.userId), `session:${data.sessionId}`]);
  });

  const realtime: Realtime = {
    io,
    disconnectSessions(sessionIds) {
      for (const id of sessionIds) io.in(`session:${id}`).disconnectSockets(true);
    },
  };
  app.decorate('realtime', realtime);
  app.addHook('onClose', async () => {
    await io.close();
  });
  return realtime;
}
