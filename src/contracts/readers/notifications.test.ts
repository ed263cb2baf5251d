import { describe, expect, it } from 'vitest';
import type { Notification } from '../notifications.ts';
import { readNotification, readNotificationPage } from './notifications.ts';

const request: Notification = {
  id: '7',
  type: 'friend_request',
  actor: { id: 'u1', username: 'alice', profileImage: '/a.png' },
  message: ' sent you a friend request',
  link: '/profile/alice',
  createdAt: '2026-01-01T09:00:00.000Z',
  read: false,
  requestId: 'u1:u2',
};

describe('reading notifications (docs/decisions.md "One name per field")', () => {
  it('keeps the canonical notification as it is', () =>
    expect(readNotification(request)).toEqual(request));

  it('reads a notification and its actor named by _id, as other servers send them, under id', () => {
    const { id: _id, ...rest } = request;
    const sent = { ...rest, _id, actor: { _id: 'u1', username: 'alice', profileImage: '/a.png' } };

    expect(readNotification(sent)).toEqual(request);
    expect(readNotification(sent)).not.toHaveProperty('_id');
    expect(readNotification(sent).actor).not.toHaveProperty('_id');
  });

  it('reads a numeric id as text', () =>
    expect(readNotification({ ...request, id: 7 }).id).toBe('7'));

  it('fails a notification with no id at all', () => {
    const { id: _id, ...rest } = request;

    expect(() => readNotification(rest)).toThrow();
  });

  it('reads each notification of a page, whichever name it came under', () => {
    const page = readNotificationPage({
      notifications: [request, { ...request, id: undefined, _id: '6', actor: null }],
      nextCursor: '6',
      unread: 2,
    });

    expect(page).toEqual({
      notifications: [request, { ...request, id: '6', actor: null }],
      nextCursor: '6',
      unread: 2,
    });
  });

  it('fails a page without its notifications', () =>
    expect(() => readNotificationPage({ nextCursor: null, unread: 0 })).toThrow());
});
