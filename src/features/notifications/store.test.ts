import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FriendListItemView as FriendListItem } from '../../contracts/friends.ts';
import type { Notification } from '../../contracts/notifications.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  read: vi.fn(),
  remove: vi.fn(),
  removeAll: vi.fn(),
}));
const friends = vi.hoisted(() => ({ incoming: vi.fn(), outgoing: vi.fn() }));

vi.mock('./api.ts', () => ({ notificationsApi: api }));
vi.mock('../friends/api.ts', () => ({ friendsApi: friends, readList: () => [] }));

const { useNotifications } = await import('./store.ts');
const { useFriends } = await import('../friends/store.ts');

const welcome: Notification = {
  _id: '1',
  type: 'system',
  actor: null,
  message: 'Welcome to Orbit!',
  link: '/settings',
  createdAt: '2026-01-01T09:00:00.000Z',
  read: false,
  requestId: null,
};
const incoming: FriendListItem = {
  _id: 'u1:u2',
  requestId: 'u1:u2',
  user: { _id: 'u1', id: 'u1', username: 'alice', fullName: '', profileImage: '' },
  fromUserId: 'u1',
  toUserId: 'u2',
  username: 'alice',
  profileImage: '',
  createdAt: '2026-01-01T10:00:00.000Z',
};

async function settle() {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  vi.clearAllMocks();
  vi.useFakeTimers();
  api.page.mockResolvedValue({ notifications: [welcome], nextCursor: null, unread: 1 });
  api.read.mockResolvedValue({ ok: true, unread: 0 });
  api.removeAll.mockResolvedValue(undefined);
  friends.incoming.mockResolvedValue([incoming]);
  friends.outgoing.mockResolvedValue([]);
});

afterEach(() => {
  useNotifications.getState().reset();
  vi.useRealTimers();
});

describe('notifications store', () => {
  it('merges server notifications with synthesised friend requests, newest first', async () => {
    useNotifications.getState().start('u2');
    await settle();
    const { items, unread } = useNotifications.getState();
    expect(items.map((item) => item._id)).toEqual(['fr:u1:u2', '1']);
    expect(unread).toBe(2);
  });

  it('refreshes at most once per 1.2 s', async () => {
    useNotifications.getState().start('u2');
    await settle();
    expect(api.page).toHaveBeenCalledTimes(1);
    useNotifications.getState().refresh();
    useNotifications.getState().refresh();
    await settle();
    expect(api.page).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_200);
    expect(api.page).toHaveBeenCalledTimes(2);
  });

  it('marks all read optimistically and on the server', async () => {
    useNotifications.getState().start('u2');
    await settle();
    const done = useNotifications.getState().markAllRead();
    expect(useNotifications.getState().unread).toBe(0);
    expect(useNotifications.getState().items.every((item) => item.read)).toBe(true);
    await done;
    expect(api.read).toHaveBeenCalledWith('all');
  });

  it('clear all empties the list and zeroes the friend-request count', async () => {
    useFriends.setState({ counts: { incoming: 3, outgoing: 1, friends: 2 } });
    useNotifications.getState().start('u2');
    await settle();
    await useNotifications.getState().clearAll();
    expect(useNotifications.getState().items).toEqual([]);
    expect(useFriends.getState().counts).toEqual({ incoming: 0, outgoing: 1, friends: 2 });
    expect(api.removeAll).toHaveBeenCalledTimes(1);
    // A cleared friend request does not come back while it is still pending.
    await vi.advanceTimersByTimeAsync(1_200);
    useNotifications.getState().refresh();
    await settle();
    expect(useNotifications.getState().items.map((item) => item._id)).toEqual(['1']);
  });

  it('follows live events from other tabs and devices', async () => {
    useNotifications.getState().start('u2');
    await settle();
    useNotifications
      .getState()
      .receiveNew({ ...welcome, _id: '9', type: 'follow', createdAt: '2026-01-02T00:00:00.000Z' });
    expect(useNotifications.getState().items[0]?._id).toBe('9');
    expect(useNotifications.getState().unread).toBe(3);
    useNotifications.getState().receiveChanged({ read: 'all', unread: 0 });
    expect(useNotifications.getState().unread).toBe(0);
    useNotifications.getState().receiveChanged({ removed: ['9'], unread: 0 });
    expect(useNotifications.getState().items.map((item) => item._id)).toEqual(['fr:u1:u2', '1']);
  });

  it("reports 'Failed to load' for a request list failing with no body", async () => {
    friends.incoming.mockRejectedValueOnce(
      Object.assign(new Error('500 '), { status: 500, body: '', serverMessage: null }),
    );
    await useNotifications.getState().refreshRequests();
    expect(useNotifications.getState().requestsStatus).toBe('error');
    expect(useNotifications.getState().requestsError).toBe('Failed to load');
  });
});
