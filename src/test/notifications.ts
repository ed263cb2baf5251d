import type { FriendListItem } from '../contracts/friends.ts';
import type { Notification } from '../contracts/notifications.ts';

/** The welcome notification; each test overrides what it is about. */
export function note(overrides: Partial<Notification> = {}): Notification {
  return {
    id: '1',
    type: 'system',
    actor: null,
    message: 'Welcome to Orbit!',
    link: '/settings',
    createdAt: '2026-01-01T09:00:00.000Z',
    read: false,
    requestId: null,
    ...overrides,
  };
}

/** Alice's friend request to u2. */
export function request(overrides: Partial<FriendListItem> = {}): FriendListItem {
  return {
    requestId: 'u1:u2',
    user: {
      id: 'u1',
      username: 'alice',
      fullName: 'Alice Nova',
      profileImage: '/a.png',
    },
    fromUserId: 'u1',
    toUserId: 'u2',
    createdAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
