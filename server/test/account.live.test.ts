/**
 * What a deletion does to live connections (docs/product.md "Leaving", "Realtime"): the member's
 * sockets end whatever session opened them, watchers see them go offline, and the other side of
 * each friendship, request and notification is told at once, but a member a block hid them from.
 */
import type { Socket } from 'socket.io-client';
import { describe, expect, it, vi } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { Ack } from '../../src/contracts/realtime.ts';
import { deleteOwnAccount } from './account-helpers.ts';
import { patchImage, uploadImage } from './gallery-helpers.ts';
import { notificationIds } from './factories.ts';
import { forEachDialect, friendAction, loginAs, signupMembers, useTestApp } from './helpers.ts';
import { block } from './safety-helpers.ts';
import { useLiveApp } from './live-app.ts';
import { nextEvent } from './sockets.ts';

forEachDialect((dialect) => {
  const t = useTestApp(dialect);
  const { connectAs } = useLiveApp(t);
  const ack = (socket: Socket, event: string, payload: unknown) =>
    socket.timeout(5_000).emitWithAck(event, payload) as Promise<Ack>;
  const disconnected = (socket: Socket) =>
    new Promise<string>((resolve) => socket.once('disconnect', resolve));

  describe('the member’s sockets', () => {
    it('are all disconnected, whichever session opened them, and others stay', async () => {
      const [leaver, other] = await signupMembers(t.app, 2);
      const elsewhere = await loginAs(t.app, leaver);
      const tabs = [await connectAs(leaver), await connectAs(leaver), await connectAs(elsewhere)];
      const otherTab = await connectAs(other);
      const ended = tabs.map(disconnected);

      expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);

      expect(await Promise.all(ended)).toEqual([
        'io server disconnect',
        'io server disconnect',
        'io server disconnect',
      ]);
      expect((await ack(otherTab, 'image:leave', { imageId: 'none' })).ok).toBe(true);
      expect(otherTab.connected).toBe(true);
    });

    it('cannot be opened again with the member’s token', async () => {
      const [leaver] = await signupMembers(t.app, 1);
      expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);

      await expect(connectAs(leaver)).rejects.toThrow('unauthorized');
    });
  });

  it('tells a watcher of the member’s gallery that they went offline', async () => {
    const [leaver, watcher] = await signupMembers(t.app, 2);
    const tab = await connectAs(leaver);
    expect((await ack(tab, 'presence:join', { userId: leaver.user.id })).ok).toBe(true);
    const watching = await connectAs(watcher);
    expect(await ack(watching, 'gallery:join', { ownerId: leaver.user.id })).toEqual({
      ok: true,
      online: true,
    });
    const update = nextEvent(watching, 'presence:update');

    expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);

    expect(await update).toEqual({ userId: leaver.user.id, online: false });
    expect(await t.app.presence.isOnline(leaver.user.id)).toBe(false);
  });

  it('tells each friend and each side of a pending request that the relation ended', async () => {
    const [leaver, friend, asked, asking] = await signupMembers(t.app, 4);
    await friendAction(t.app, friend, 'request', leaver);
    await friendAction(t.app, leaver, 'accept', friend);
    await friendAction(t.app, leaver, 'request', asked);
    await friendAction(t.app, asking, 'request', leaver);
    const [friendTab, askedTab, askingTab] = await Promise.all(
      [friend, asked, asking].map(connectAs),
    );
    const heard = [
      nextEvent(friendTab!, 'friend:removed'),
      nextEvent(askedTab!, 'friend:request:canceled'),
      nextEvent(askingTab!, 'friend:declined'),
    ];

    expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);

    expect(await Promise.all(heard)).toEqual(
      [friend, asked, asking].map((other) => ({
        fromUserId: leaver.user.id,
        toUserId: other.user.id,
        pairKey: pairKey(leaver.user.id, other.user.id),
      })),
    );
  });

  it('takes the member’s friend request out of the other member’s notifications at once', async () => {
    const [leaver, asked] = await signupMembers(t.app, 2);
    await friendAction(t.app, leaver, 'request', asked);
    const request = await notificationIds(t.app, leaver, asked);
    expect(request).toHaveLength(1);
    const tab = await connectAs(asked);
    const changed = nextEvent(tab, 'notification:changed');

    expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);

    // The welcome notification is still unread.
    expect(await changed).toEqual({ removed: request, unread: 1 });
  });

  it.each(['the member', 'the other'] as const)(
    'tells a member blocked either way nothing of their notifications going, when %s blocked',
    async (blocker) => {
      const [leaver, other, third] = await signupMembers(t.app, 3);
      const theirs = await uploadImage(t.app, other);
      await patchImage(t.app, leaver, theirs.id, { likes: true });
      if (blocker === 'the member') await block(t.app, leaver, other);
      else await block(t.app, other, leaver);
      const tab = await connectAs(other);
      const seen: string[] = [];
      tab.onAny((event: string) => seen.push(event));
      await ack(tab, 'gallery:join', { ownerId: third.user.id });

      expect((await deleteOwnAccount(t.app, leaver)).statusCode).toBe(200);
      // The third member's upload marks the end: anything sent before it would have come first.
      const marker = nextEvent(tab, 'gallery:image:created');
      await uploadImage(t.app, third);
      await marker;

      expect(seen).toEqual(['gallery:image:created']);
    },
  );

  it('tells nobody anything when the deletion is refused', async () => {
    const [leaver, friend] = await signupMembers(t.app, 2);
    await friendAction(t.app, friend, 'request', leaver);
    await friendAction(t.app, leaver, 'accept', friend);
    const tab = await connectAs(leaver);
    const friendTab = await connectAs(friend);
    const seen: string[] = [];
    friendTab.onAny((event: string) => seen.push(event));

    const refused = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/account',
      headers: { authorization: `Bearer ${leaver.token}` },
      payload: { password: 'Wrong#Pass1', username: leaver.username },
    });

    expect(refused.statusCode).toBe(400);
    // A round trip on each socket: anything sent before it would have arrived first.
    expect((await ack(tab, 'image:leave', { imageId: 'none' })).ok).toBe(true);
    expect((await ack(friendTab, 'image:leave', { imageId: 'none' })).ok).toBe(true);
    await vi.waitFor(() => expect(tab.connected).toBe(true));
    expect(seen).toEqual([]);
  });
});
