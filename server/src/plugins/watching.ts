import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type OrbitSocket, payloadOf, reply, userRoom } from './realtime.ts';

export interface Watching {
  /**
   * Two members were blocked (docs/product.md "Blocking"): every socket of each, on every server
   * process, leaves the other's gallery and image rooms, so neither hears the other's gallery or
   * presence any more.
   */
  separate: (a: string, b: string) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    watching: Watching;
  }
}

/** Everyone watching a member's gallery; the gallery's events and its owner's presence go here. */
export const galleryRoom = (ownerId: string) => `gallery:${ownerId}`;
/** Everyone watching one image in the viewer. */
export const imageRoom = (imageId: string) => `image:${imageId}`;
const MAX_ROOMS_PER_SOCKET = 64;

/**
 * The refusal of a watch of what does not exist, and of what a block hides, in the same words: a
 * socket cannot tell one from the other.
 */
export const WATCH_REFUSED = {
  gallery: 'No such gallery.',
  image: 'No such image.',
} as const;

/**
 * The owner of the gallery (named by its owner's id) or the image a member asks to watch, as that
 * member may see them: undefined when there is no such member or image, or when its owner and the
 * member are blocked either way, alike.
 * docs/decisions.md "A block stops live events at once, on every node"
 */
export type WatchedOwner = (
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

function localSocket(app: FastifyInstance, userId: string): LocalSocket {
  let queue: Promise<void> = Promise.resolve();
  return {
    imageOwners: new Map(),
    serial: (work) => {
      const next = queue.then(work).catch((error: unknown) => {
        app.log.warn({ err: error, userId }, 'a room change of a socket failed');
      });
      queue = next;
      return next;
    },
  };
}

/**
 * A socket's watches. Anyone signed in may watch a gallery or an image that exists, except one
 * whose owner and they are blocked either way (docs/product.md "Blocking"), refused alike; a
 * socket watches a bounded number of rooms. The lookup (one statement, the block inside it) and
 * the join run in the socket's queue; the owner's presence is asked after it.
 */
function handleWatches(
  app: FastifyInstance,
  socket: OrbitSocket,
  state: LocalSocket,
  watchedOwner: WatchedOwner,
): void {
  const { userId } = socket.data;
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
        const online = ownerId ? await app.presence.lookup(ownerId) : undefined;
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
}

/** Galleries and images watched live, and the separation a block makes between their watchers. */
function registerWatching(app: FastifyInstance, watchedOwner: WatchedOwner): Watching {
  const { io, acrossNodes } = app.realtime;
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
  if (acrossNodes) io.on('orbit:separate', separateBoth);

  // Watchers of a member's gallery and images see them come and go (docs/product.md "Realtime", "Image viewer").
  app.presence.onChange((userId, online) => {
    io.to(galleryRoom(userId)).emit('presence:update', { userId, online });
  });

  io.on('connection', (socket: OrbitSocket) => {
    const state = localSocket(app, socket.data.userId);
    local.set(socket.id, state);
    socket.on('disconnect', () => local.delete(socket.id));
    handleWatches(app, socket, state, watchedOwner);
  });

  return {
    separate(a, b) {
      separateBoth(a, b);
      // The other nodes do the same for their own sockets (the in-memory adapter has no others).
      if (acrossNodes) io.serverSideEmit('orbit:separate', a, b);
    },
  };
}

/**
 * Watching galleries and images over the socket server. The owner a watch names is found by
 * `watchedOwner`, handed in (the members and the gallery know it).
 */
export const watchingPlugin = fp<{ watchedOwner: WatchedOwner }>(
  (app, options, done) => {
    app.decorate('watching', registerWatching(app, options.watchedOwner));
    done();
  },
  { name: 'orbit-watching', dependencies: ['orbit-realtime', 'orbit-presence'] },
);
