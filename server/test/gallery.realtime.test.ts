/** Gallery watchers over socket.io (docs/product.md "Realtime"): image events, the owner's presence in acks and updates. */
import type { Socket } from 'socket.io-client';
import { expect, it } from 'vitest';
import type { GalleryImage, GalleryImageLive } from '../../src/contracts/gallery.ts';
import { deleteImage, patchImage, uploadImage } from './gallery-helpers.ts';
import { type Member, forEachDialect, signupPair } from './helpers.ts';
import { useLiveOwnerAndWatcher } from './live-app.ts';
import { nextEvent } from './sockets.ts';

interface JoinAck {
  ok: boolean;
  online?: boolean;
  error?: string;
}

forEachDialect((dialect) => {
  const { t, pair, connectAs } = useLiveOwnerAndWatcher(dialect);

  const watch = (socket: Socket, ownerId: string) =>
    socket.timeout(5_000).emitWithAck('gallery:join', { ownerId }) as Promise<JoinAck>;
  const joinPresence = (socket: Socket, member: Member) =>
    socket.timeout(5_000).emitWithAck('presence:join', {
      userId: member.user.id,
      username: member.username,
    }) as Promise<JoinAck>;
  const leavePresence = (socket: Socket) =>
    socket.timeout(5_000).emitWithAck('presence:leave') as Promise<JoinAck>;
  /**
   * The watcher watching the owner's gallery, then the owner joining presence: answers both
   * sockets and what the watcher heard of it.
   */
  const ownerComesOnline = async () => {
    const socket = await connectAs(pair.watcher);
    await watch(socket, pair.owner.user.id);
    const ownerSocket = await connectAs(pair.owner);
    const online = nextEvent(socket, 'presence:update');
    await joinPresence(ownerSocket, pair.owner);
    return { socket, ownerSocket, heard: await online };
  };

  it('sends gallery:image:created to a watcher when the owner uploads', async () => {
    const socket = await connectAs(pair.watcher);
    expect(await watch(socket, pair.owner.user.id)).toMatchObject({ ok: true });
    const created = nextEvent<GalleryImageLive>(socket, 'gallery:image:created');

    const { likes: _likes, dislikes: _dislikes, ...image } = await uploadImage(t.app, pair.owner);

    expect(await created).toEqual(image);
  });

  it('sends gallery:image:updated with the image and its counts to a watcher on a like', async () => {
    const image = await uploadImage(t.app, pair.owner);
    const [liker] = await signupPair(t.app);
    const socket = await connectAs(pair.watcher);
    await watch(socket, pair.owner.user.id);
    const updated = nextEvent<GalleryImageLive>(socket, 'gallery:image:updated');

    const response = await patchImage(t.app, liker, image.id, { likes: true });

    const {
      likes,
      dislikes: _dislikes,
      ...answered
    } = response.json<{ image: GalleryImage }>().image;
    expect(likes).toEqual([liker.user.id]);
    const payload = await updated;
    expect(payload).toEqual(answered);
    expect(payload).toMatchObject({
      id: image.id,
      likeCount: 1,
      dislikeCount: 0,
      owner: { username: pair.owner.username },
    });
  });

  it('sends gallery:image:updated to the liker’s own socket with their reaction', async () => {
    const image = await uploadImage(t.app, pair.owner);
    const socket = await connectAs(pair.watcher);
    await watch(socket, pair.owner.user.id);
    const updated = nextEvent<GalleryImageLive>(socket, 'gallery:image:updated');

    await patchImage(t.app, pair.watcher, image.id, { likes: true });

    expect(await updated).toMatchObject({ id: image.id, likeCount: 1, myReaction: 'like' });
  });

  it('sends gallery:image:deleted to a watcher when the owner deletes', async () => {
    const image = await uploadImage(t.app, pair.owner);
    const socket = await connectAs(pair.watcher);
    await watch(socket, pair.owner.user.id);
    const deleted = nextEvent<{ id: string; ownerId: string }>(socket, 'gallery:image:deleted');

    await deleteImage(t.app, pair.owner, image.id);

    expect(await deleted).toEqual({ id: image.id, ownerId: pair.owner.user.id });
  });

  it('sends nothing to a socket that left the gallery', async () => {
    const socket = await connectAs(pair.watcher);
    await watch(socket, pair.owner.user.id);
    await socket.timeout(5_000).emitWithAck('gallery:leave', { ownerId: pair.owner.user.id });
    const seen: [string, string | undefined][] = [];
    socket.onAny((event: string, image?: GalleryImage) => seen.push([event, image?.id]));

    await uploadImage(t.app, pair.owner);
    // Then an upload the socket does watch: events on one socket keep their order, so an event
    // for the owner's upload would come before this one.
    await watch(socket, pair.watcher.user.id);
    const created = nextEvent<GalleryImage>(socket, 'gallery:image:created');
    const own = await uploadImage(t.app, pair.watcher);
    await created;

    expect(seen).toEqual([['gallery:image:created', own.id]]);
  });

  it('answers gallery:join with online false while the owner has no tab in presence', async () => {
    const socket = await connectAs(pair.watcher);

    expect(await watch(socket, pair.owner.user.id)).toEqual({ ok: true, online: false });
  });

  it('answers gallery:join with online true while the owner is in presence', async () => {
    const ownerSocket = await connectAs(pair.owner);
    expect(await joinPresence(ownerSocket, pair.owner)).toEqual({ ok: true });
    const socket = await connectAs(pair.watcher);

    expect(await watch(socket, pair.owner.user.id)).toEqual({ ok: true, online: true });
  });

  it('sends presence:update to a watcher when the owner joins and leaves presence', async () => {
    const { socket, ownerSocket, heard } = await ownerComesOnline();
    expect(heard).toEqual({ userId: pair.owner.user.id, online: true });

    const offline = nextEvent(socket, 'presence:update');
    await leavePresence(ownerSocket);
    expect(await offline).toEqual({ userId: pair.owner.user.id, online: false });
    expect(await watch(socket, pair.owner.user.id)).toEqual({ ok: true, online: false });
  });

  it('sends presence:update offline to a watcher when the owner’s last tab disconnects', async () => {
    const { socket, ownerSocket } = await ownerComesOnline();

    const offline = nextEvent(socket, 'presence:update');
    ownerSocket.disconnect();

    expect(await offline).toEqual({ userId: pair.owner.user.id, online: false });
  });
});
