import type { PushPayload } from '../../src/contracts/push.ts';

/** A friend request from alice as the relay pushes it; `changes` make the case at hand. */
export function pushPayload(changes: Partial<PushPayload> = {}): PushPayload {
  return {
    id: 7,
    kind: 'friend_request',
    requestId: 'req-1',
    actor: { id: 'u-alice', username: 'alice', profileImage: '/uploads/avatars/alice.png' },
    url: '/profile/alice',
    unread: 3,
    createdAt: '2026-11-23T09:00:00.000Z',
    ...changes,
  };
}
