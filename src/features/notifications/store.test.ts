import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { note, request } from '../../test/notifications.ts';

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
const { useOutboxItems } = await import('../offline/outbox.ts');
const { waitingItem } = await import('../../test/outbox.ts');
const { useFriends } = await import('../friends/store.ts');

const welcome = note();
const incoming = request();

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
    expect(items.map((item) => item.id)).toEqual(['fr:u1:u2', '1']);
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

  it('fires nothing after reset: the waiting refresh is cancelled and nothing is fetched', async () => {
    useNotifications.getState().start('u2');
    await settle();
    useNotifications.getState().refresh();
    expect(vi.getTimerCount()).toBe(1);
    useNotifications.getState().reset();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.page).toHaveBeenCalledTimes(1);
    expect(friends.incoming).toHaveBeenCalledTimes(1);
    useNotifications.getState().refresh();
    await settle();
    expect(api.page).toHaveBeenCalledTimes(1);
  });

  it('puts a request back in the list when answering it fails', async () => {
    useNotifications.setState({ incoming: [incoming] });
    useFriends.setState({ busy: { u1: true } });
    await useNotifications.getState().answer('accept', 'u1', 'alice');
    expect(useNotifications.getState().incoming).toEqual([incoming]);
    useFriends.getState().reset();
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
    expect(useNotifications.getState().items.map((item) => item.id)).toEqual(['1']);
  });

  it('follows live events from other tabs and devices', async () => {
    useNotifications.getState().start('u2');
    await settle();
    useNotifications
      .getState()
      .receiveNew({ ...welcome, id: '9', type: 'follow', createdAt: '2026-01-02T00:00:00.000Z' });
    expect(useNotifications.getState().items[0]?.id).toBe('9');
    expect(useNotifications.getState().unread).toBe(3);
    useNotifications.getState().receiveChanged({ read: 'all', unread: 0 });
    expect(useNotifications.getState().unread).toBe(0);
    useNotifications.getState().receiveChanged({ removed: ['9'], unread: 0 });
    expect(useNotifications.getState().items.map((item) => item.id)).toEqual(['fr:u1:u2', '1']);
  });

  it('counts a notification heard twice once', async () => {
    useNotifications.getState().start('u2');
    await settle();
    const follow = { ...welcome, id: '9', type: 'follow' as const };
    useNotifications.getState().receiveNew(follow);
    useNotifications.getState().receiveNew(follow);
    expect(useNotifications.getState().items.filter((item) => item.id === '9')).toHaveLength(1);
    expect(useNotifications.getState().unread).toBe(3);
  });

  it('takes an ended request out of every list from its event alone, reading nothing', async () => {
    useNotifications.getState().start('u2');
    await settle();
    await useNotifications.getState().refreshRequests();
    await vi.advanceTimersByTimeAsync(1_200);
    const asked = [api.page.mock.calls.length, friends.incoming.mock.calls.length];
    useNotifications.getState().receiveFriendEvent('friend:request:canceled', {
      fromUserId: 'u1',
      toUserId: 'u2',
      pairKey: 'u1:u2',
    });
    await settle();
    expect(useNotifications.getState().incoming).toEqual([]);
    expect(useNotifications.getState().items.map((item) => item.id)).toEqual(['1']);
    expect([api.page.mock.calls.length, friends.incoming.mock.calls.length]).toEqual(asked);
  });

  it('reads a new request, whose event names only the pair', async () => {
    friends.incoming.mockResolvedValue([]);
    useNotifications.getState().start('u2');
    await settle();
    await vi.advanceTimersByTimeAsync(1_200);
    friends.incoming.mockResolvedValue([incoming]);
    useNotifications.getState().receiveFriendEvent('friend:request:created', {
      fromUserId: 'u1',
      toUserId: 'u2',
      pairKey: 'u1:u2',
    });
    await settle();
    expect(useNotifications.getState().items.map((item) => item.id)).toEqual(['fr:u1:u2', '1']);
  });

  it("reports 'Failed to load' for a request list failing with no body", async () => {
    friends.incoming.mockRejectedValueOnce(
      Object.assign(new Error('500 '), { status: 500, body: '', serverMessage: null }),
    );
    await useNotifications.getState().refreshRequests();
    expect(useNotifications.getState().requestsStatus).toBe('error');
    expect(useNotifications.getState().requestsError).toBe('Failed to load');
  });

  describe('answers waiting in the outbox', () => {
    afterEach(() => useOutboxItems.setState({ items: [] }));
    const sent = request({
      requestId: 'u2:u3',
      user: { id: 'u3', username: 'orion', fullName: 'Orion', profileImage: '' },
      fromUserId: 'u2',
      toUserId: 'u3',
    });

    it('leave the requests they answer out of what the server lists', async () => {
      friends.outgoing.mockResolvedValue([sent]);
      useOutboxItems.setState({
        items: [
          waitingItem(1, 'POST', '/api/users/friends/accept', { fromUserId: 'u1' }),
          waitingItem(2, 'POST', '/api/users/friends/cancel', { toUserId: 'u3' }),
        ],
      });
      useNotifications.getState().start('u2');
      await settle();
      await useNotifications.getState().refreshRequests();
      const { incoming, outgoing, synthesised, items } = useNotifications.getState();
      expect([incoming, outgoing, synthesised]).toEqual([[], [], []]);
      expect(items.map((item) => item.id)).toEqual(['1']);
    });

    it('take the requests they answer out of the lists held as soon as the outbox lists them', async () => {
      friends.outgoing.mockResolvedValue([sent]);
      useNotifications.getState().start('u2');
      await settle();
      await useNotifications.getState().refreshRequests();
      expect(useNotifications.getState().items.map((item) => item.id)).toEqual(['fr:u1:u2', '1']);
      useOutboxItems.setState({
        items: [waitingItem(1, 'POST', '/api/users/friends/decline', { fromUserId: 'u1' })],
      });
      const { incoming, outgoing, synthesised, items } = useNotifications.getState();
      expect([incoming, synthesised]).toEqual([[], []]);
      expect(outgoing).toEqual([sent]);
      expect(items.map((item) => item.id)).toEqual(['1']);
    });
  });
});
