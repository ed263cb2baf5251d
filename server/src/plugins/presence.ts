import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type OrbitSocket, payloadOf, reply } from './realtime.ts';

export interface Presence {
  /** Whether the member has a tab in presence right now, on any server process. */
  isOnline(userId: string): Promise<boolean>;
  /** Which of these members have a tab in presence right now, in one question to every process. */
  onlineAmong(userIds: readonly string[]): Promise<Set<string>>;
  /**
   * isOnline for bookkeeping inside socket handlers: with the Redis adapter the lookup asks every
   * process and can time out or fail, and a rejection there would be unhandled (and end the
   * process). A failed lookup is logged and answers undefined ("unknown").
   */
  lookup(userId: string): Promise<boolean | undefined>;
  /** Hears of a member's first tab joining presence and of their last one leaving. */
  onChange(listener: (userId: string, online: boolean) => void): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    presence: Presence;
  }
}

const presenceRoom = (userId: string) => `presence:${userId}`;

/**
 * Presence (docs/product.md "Realtime"): a tab joins its own member's presence and leaves it; a
 * member is online while any tab of theirs, on any node, is in it.
 */
function registerPresence(app: FastifyInstance): Presence {
  const { io } = app.realtime;
  /** This node's sockets that are in presence. */
  const present = new Set<string>();
  const listeners: ((userId: string, online: boolean) => void)[] = [];
  const changed = (userId: string, online: boolean) => {
    for (const listener of listeners) listener(userId, online);
  };

  const isOnline = async (userId: string) =>
    (await io.in(presenceRoom(userId)).fetchSockets()).length > 0;
  const lookup = (userId: string) =>
    isOnline(userId).catch((error: unknown) => {
      app.log.warn({ err: error, userId }, 'presence lookup failed');
      return undefined;
    });

  /** After a socket leaves presence, the member is offline only if no other tab anywhere remains. */
  const leave = async (socket: OrbitSocket) => {
    if (!present.delete(socket.id)) return;
    await socket.leave(presenceRoom(socket.data.userId));
    if ((await lookup(socket.data.userId)) === false) changed(socket.data.userId, false);
  };

  io.on('connection', (socket: OrbitSocket) => {
    const { userId } = socket.data;
    socket.on('presence:join', (payload, ack) => {
      if (payloadOf('presence:join', payload)?.userId !== userId) {
        reply(ack, { ok: false, error: 'You can only join presence as yourself.' });
        return;
      }
      const wasPresent = present.has(socket.id);
      present.add(socket.id);
      void (async () => {
        const before = wasPresent || (await lookup(userId)) !== false;
        await socket.join(presenceRoom(userId));
        if (!before) changed(userId, true);
        reply(ack, { ok: true });
      })();
    });
    socket.on('presence:leave', (ack) => {
      void leave(socket).then(() => reply(ack, { ok: true }));
    });
    socket.on('disconnect', () => {
      if (!present.delete(socket.id)) return;
      // The room is already left on disconnect; only the "anyone left?" question remains.
      void lookup(userId).then((online) => {
        if (online === false) changed(userId, false);
      });
    });
  });

  return {
    isOnline,
    async onlineAmong(userIds) {
      if (userIds.length === 0) return new Set<string>();
      const sockets = await io.in(userIds.map(presenceRoom)).fetchSockets();
      return new Set(sockets.map((socket) => socket.data.userId));
    },
    lookup,
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

/** Which members have a tab open, on every node, from the socket server's presence rooms. */
export const presencePlugin = fp(
  (app, _options, done) => {
    app.decorate('presence', registerPresence(app));
    done();
  },
  { name: 'orbit-presence', dependencies: ['orbit-realtime'] },
);
