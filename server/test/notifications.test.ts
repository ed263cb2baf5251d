/** Notifications stored on the server (issue 5): producers, read and clear, and the owner rule. */
import { describe, expect, it } from 'vitest';
import type { Notification, NotificationPage } from '../../src/contracts/notifications.ts';
import { pairKey } from '../../src/contracts/friends.ts';
import {
  type Member,
  asBearer,
  friendAction,
  signupMembers,
  forEachApp,
  getNotifications,
  markRead,
} from './helpers.ts';

forEachApp((t) => {
  const members = async (count: number) => await signupMembers(t.app, count);
  const list = async (member: Member, query = ''): Promise<NotificationPage> => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/notifications${query}`,
      headers: asBearer(member),
    });
    expect(response.statusCode).toBe(200);
    return response.json<NotificationPage>();
  };
  const ofType = async (member: Member, type: Notification['type']) =>
    (await list(member)).notifications.filter((notification) => notification.type === type);
  /** Clears all of the member's notifications, or at `/api/notifications/{id}` one of them. */
  const clear = (member: Member, url = '/api/notifications') =>
    t.app.inject({ method: 'DELETE', url, headers: asBearer(member) });

  describe('producers', () => {
    it('welcomes a new member with a system notification', async () => {
      const [a] = (await members(1)) as [Member];
      const [welcome] = await ofType(a, 'system');
      expect(welcome).toMatchObject({ message: 'Welcome to Orbit!', actor: null, read: false });
    });

    it('tells the receiver of a friend request, with the actor and a link to their profile', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, a, 'request', b);
      const [notification] = await ofType(b, 'friend_request');
      expect(notification).toMatchObject({
        message: ' sent you a friend request',
        link: `/profile/${a.user.username}`,
        requestId: pairKey(a.user.id, b.user.id),
        read: false,
        actor: { id: a.user.id, username: a.user.username },
      });
      expect(await ofType(a, 'friend_request')).toEqual([]);
    });

    it('names each notification and its actor by id, never _id (docs/decisions.md "One name per field")', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, a, 'request', b);
      const response = await getNotifications(t.app, asBearer(b));
      const [request] = response.json<NotificationPage>().notifications;
      expect(Object.keys(request ?? {})).toContain('id');
      expect(Object.keys(request?.actor ?? {})).toContain('id');
      expect(response.body).not.toContain('"_id"');
    });

    it('tells the sender when their request is accepted, and marks the receiver’s request notification read', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, a, 'request', b);
      await friendAction(t.app, b, 'accept', a);
      const [follow] = await ofType(a, 'follow');
      expect(follow).toMatchObject({
        message: ' accepted your friend request',
        actor: { id: b.user.id },
      });
      expect((await ofType(b, 'friend_request'))[0]?.read).toBe(true);
    });

    it('removes the request notification when the sender cancels', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, a, 'request', b);
      await friendAction(t.app, a, 'cancel', b);
      expect(await ofType(b, 'friend_request')).toEqual([]);
    });

    it('removes the request notification when the receiver declines', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, a, 'request', b);
      await friendAction(t.app, b, 'decline', a);
      expect(await ofType(b, 'friend_request')).toEqual([]);
    });

    it('accepting by asking back tells the first sender', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, a, 'request', b);
      await friendAction(t.app, b, 'request', a);
      expect(await ofType(a, 'follow')).toHaveLength(1);
    });
  });

  describe('reading and clearing', () => {
    it('marks chosen notifications read and counts what is left unread', async () => {
      const [a, b, c] = (await members(3)) as [Member, Member, Member];
      await friendAction(t.app, b, 'request', a);
      await friendAction(t.app, c, 'request', a);
      const before = await list(a);
      expect(before.unread).toBe(3);
      const target = before.notifications[0]?.id ?? '';
      const response = await markRead(t.app, asBearer(a), { ids: [target] });
      expect(response.json()).toEqual({ ok: true, unread: 2 });
      const after = await list(a);
      expect(after.notifications.find((n) => n.id === target)?.read).toBe(true);
      expect(after.unread).toBe(2);
    });

    it('marks all read', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, b, 'request', a);
      await markRead(t.app, asBearer(a), { all: true });
      const page = await list(a);
      expect(page.unread).toBe(0);
      expect(page.notifications.every((n) => n.read)).toBe(true);
    });

    it('refuses a read call without ids or all', async () => {
      const [a] = (await members(1)) as [Member];
      const response = await markRead(t.app, asBearer(a), {});
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Send {ids: [...]} or {all: true}.' });
    });

    it('clears one and then all, for good', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await friendAction(t.app, b, 'request', a);
      const [first] = (await list(a)).notifications;
      expect((await clear(a, `/api/notifications/${first?.id}`)).statusCode).toBe(204);
      expect((await list(a)).notifications.map((n) => n.id)).not.toContain(first?.id);
      expect((await clear(a)).statusCode).toBe(204);
      expect(await list(a)).toMatchObject({ notifications: [], unread: 0 });
    });
  });

  describe('another member’s notifications', () => {
    it('cannot be seen', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const ids = (await list(a)).notifications.map((n) => n.id);
      expect((await list(b)).notifications.map((n) => n.id).some((id) => ids.includes(id))).toBe(
        false,
      );
    });

    it('cannot be marked read', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const [welcome] = (await list(a)).notifications;
      await markRead(t.app, asBearer(b), { ids: [welcome?.id] });
      expect((await list(a)).notifications[0]?.read).toBe(false);
    });

    it('cannot be cleared: 404, and it stays', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      const [welcome] = (await list(a)).notifications;
      expect((await clear(b, `/api/notifications/${welcome?.id}`)).statusCode).toBe(404);
      expect((await list(a)).notifications).toHaveLength(1);
    });

    it('are not removed by another member clearing all of theirs', async () => {
      const [a, b] = (await members(2)) as [Member, Member];
      await clear(b);
      expect((await list(a)).notifications).toHaveLength(1);
    });

    it('need a signed-in member', async () => {
      const response = await getNotifications(t.app, {});
      expect(response.statusCode).toBe(401);
    });
  });

  describe('pages', () => {
    it('stay stable while new notifications arrive', async () => {
      const [a, ...others] = await members(6);
      for (const other of others.slice(0, 4))
        await friendAction(t.app, other, 'request', a as Member);
      const first = await list(a as Member, '?limit=2');
      expect(first.notifications).toHaveLength(2);
      expect(first.nextCursor).not.toBeNull();
      // A newer notification arrives between the pages.
      await friendAction(t.app, others[4] as Member, 'request', a as Member);
      const second = await list(a as Member, `?limit=2&before=${first.nextCursor}`);
      const third = await list(a as Member, `?limit=2&before=${second.nextCursor}`);
      const seen = [...first.notifications, ...second.notifications, ...third.notifications].map(
        (n) => n.id,
      );
      expect(new Set(seen).size).toBe(5);
      expect(third.nextCursor).toBeNull();
      const ids = seen.map(Number);
      expect([...ids].sort((x, y) => y - x)).toEqual(ids);
    });

    it('refuses a cursor that is not a number', async () => {
      const [a] = (await members(1)) as [Member];
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/notifications?before=abc',
        headers: asBearer(a),
      });
      expect(response.statusCode).toBe(400);
    });
  });
});
