/**
 * A new notification is announced from what its writer already has (docs/decisions.md
 * "Notifications are announced as written"): the notification:new payload keeps the contract's
 * shape and equals the stored copy the list answers later, and no statement reads it back.
 */
import type { Socket } from 'socket.io-client';
import { beforeEach, expect, it } from 'vitest';
import { Notification, type NotificationPage } from '../../src/contracts/notifications.ts';
import { z } from '../../src/contracts/zod.ts';
import { patchImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  asBearer,
  forEachDialect,
  friendAction,
  signupMembers,
  getNotifications,
} from './helpers.ts';
import { useCountedLiveApp } from './live-app.ts';
import { afterAuthentication, touching } from './queryCounter.ts';
import { nextEvent } from './sockets.ts';

forEachDialect((dialect) => {
  const { t, counter, connectAs } = useCountedLiveApp(dialect);
  let a: Member;
  let b: Member;
  let socketOfA: Socket;
  let socketOfB: Socket;

  beforeEach(async () => {
    [a, b] = await signupMembers(t.app, 2);
    socketOfA = await connectAs(a);
    socketOfB = await connectAs(b);
  });

  const nextNotification = (socket: Socket) => nextEvent(socket, 'notification:new');

  /** The newest stored notification of `member`, as the list answers it. */
  async function newest(member: Member) {
    const response = await getNotifications(t.app, asBearer(member));
    expect(response.statusCode).toBe(200);
    return response.json<NotificationPage>().notifications[0];
  }

  /**
   * The payload keeps the contract's shape exactly, its actor named by `id` too (docs/decisions.md
   * "One name per field"), and says what the stored copy says.
   */
  async function expectAsStored(payload: unknown, member: Member) {
    expect(
      z.strictObject(Notification.shape).safeParse(payload).success,
      JSON.stringify(payload),
    ).toBe(true);
    expect(JSON.stringify(payload)).not.toContain('"_id"');
    expect(payload).toEqual(await newest(member));
  }

  it('announces a friend request as stored, with no statement reading the notification back', async () => {
    const heard = nextNotification(socketOfB);
    const { statements } = await counter.during(() => friendAction(t.app, a, 'request', b));
    const payload = await heard;
    expect(payload).toMatchObject({
      type: 'friend_request',
      actor: { id: a.user.id, username: a.user.username },
      read: false,
    });
    await expectAsStored(payload, b);

    const notifying = touching(afterAuthentication(statements), 'notifications');
    // The insert alone: it returns the row, and the actor is the member who asked.
    expect(notifying.map((s) => s.sql)).toHaveLength(1);
    expect(notifying[0]?.sql).toMatch(/^insert into "notifications"/i);
    expect(statements.some((s) => /from "notifications"/i.test(s.sql))).toBe(false);
  });

  it('announces an accepted request as stored, with no read-back', async () => {
    await friendAction(t.app, a, 'request', b);
    const heard = nextNotification(socketOfA);
    const { statements } = await counter.during(() => friendAction(t.app, b, 'accept', a));
    const payload = await heard;
    expect(payload).toMatchObject({ type: 'follow', actor: { id: b.user.id } });
    await expectAsStored(payload, a);
    // The only read of notifications left is the receiver's unread count after theirs went read.
    expect(
      statements.filter((s) => /select .* from "notifications" left join/i.test(s.sql)),
    ).toEqual([]);
  });

  it('announces a first like as stored, with no read-back', async () => {
    const image = await uploadImage(t.app, a);
    const heard = nextNotification(socketOfA);
    const { result: response, statements } = await counter.during(() =>
      patchImage(t.app, b, image.id, { likes: true }),
    );
    expect(response.statusCode).toBe(200);
    const payload = await heard;
    expect(payload).toMatchObject({
      type: 'like',
      actor: { id: b.user.id, username: b.user.username },
      link: `/profile/${a.user.username}?image=${image.id}`,
    });
    await expectAsStored(payload, a);
    expect(touching(statements, 'notifications')).toHaveLength(1);
  });
});
