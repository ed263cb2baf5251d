import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refetchShown } from '../../lib/serverState.ts';
import { queuedAnswer } from '../../test/gallery.ts';
import { waitingItem } from '../../test/outbox.ts';
import { useOutboxItems } from '../offline/outbox.ts';
import {
  connectFriendsAcrossTabs,
  receiveFriendChange,
  receiveFriendEvent,
  statusAfterEvent,
  useFriends,
} from './store.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const statusOf = (userId: string) => useFriends.getState().statuses[userId]?.status;

describe('the friends store', () => {
  let fetchMock: ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;
  beforeEach(() => {
    vi.useFakeTimers();
    useFriends.getState().reset();
    fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  describe('answers waiting in the outbox', () => {
    afterEach(() => useOutboxItems.setState({ items: [] }));
    const answers = () =>
      useOutboxItems.setState({
        items: [
          waitingItem(1, 'POST', '/api/users/friends/accept', { fromUserId: 'u1' }),
          waitingItem(2, 'POST', '/api/users/friends/cancel', { toUserId: 'u2' }),
          waitingItem(3, 'POST', '/api/users/friends/decline', { fromUserId: 'u3' }),
          waitingItem(4, 'PATCH', '/api/gallery/a', { likes: true }),
        ],
      });

    it('show over a status read from the server or its saved copy', async () => {
      answers();
      fetchMock.mockImplementation(() => Promise.resolve(json({ status: 'incoming' })));
      await expect(useFriends.getState().fetchStatus('u1')).resolves.toBe('friends');
      await expect(useFriends.getState().fetchStatus('u3')).resolves.toBe('none');
      await expect(useFriends.getState().fetchStatus('u4')).resolves.toBe('incoming');
      useFriends.getState().learn({ u2: 'pending' });
      expect(statusOf('u2')).toBe('none');
    });

    it('show on the statuses held as soon as the outbox lists them; one not read yet is left to its read', () => {
      useFriends.getState().learn({ u1: 'incoming', u2: 'pending', u5: 'incoming' });
      answers();
      expect([statusOf('u1'), statusOf('u2'), statusOf('u3'), statusOf('u5')]).toEqual([
        'friends',
        'none',
        undefined,
        'incoming',
      ]);
    });
  });

  it('applies an action at once and keeps the server’s answer', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const done = useFriends.getState().act('request', 'u2', 'orion');
    expect(statusOf('u2')).toBe('pending');
    expect(useFriends.getState().busy.u2).toBe(true);
    answer(json({ status: 'friends' }));
    await expect(done).resolves.toBe('sent');
    expect(statusOf('u2')).toBe('friends');
    expect(useFriends.getState().busy.u2).toBeUndefined();
  });

  it('reverts to the previous status when the call fails', async () => {
    useFriends.getState().applyRemote('u2', 'incoming');
    fetchMock.mockResolvedValueOnce(json({ error: 'nope' }, 500));
    await expect(useFriends.getState().act('accept', 'u2')).resolves.toBe('failed');
    expect(statusOf('u2')).toBe('incoming');
  });

  it('keeps an accept the offline outbox holds, and frees the buttons', async () => {
    useFriends.getState().applyRemote('u2', 'incoming');
    fetchMock.mockResolvedValueOnce(queuedAnswer());
    await expect(useFriends.getState().act('accept', 'u2')).resolves.toBe('queued');
    expect(statusOf('u2')).toBe('friends');
    expect(useFriends.getState().busy.u2).toBeUndefined();
  });

  it('blocks a second action while one is running', async () => {
    fetchMock.mockReturnValue(new Promise(() => undefined));
    void useFriends.getState().act('request', 'u2');
    await expect(useFriends.getState().act('cancel', 'u2')).resolves.toBe('failed');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('tells this member’s other tabs of an action over orbit:friends and the window event', async () => {
    const stop = connectFriendsAcrossTabs();
    const otherTab = new BroadcastChannel('orbit:friends');
    const posted = new Promise<unknown>((resolve) => {
      otherTab.onmessage = (event: MessageEvent) => resolve(event.data);
    });
    const inPage = vi.fn<(event: Event) => void>();
    window.addEventListener('orbit:friends-changed', inPage);
    try {
      fetchMock.mockResolvedValueOnce(json({ status: 'friends' }));
      await useFriends.getState().act('accept', 'u2');
      expect((inPage.mock.calls[0]?.[0] as CustomEvent).detail).toEqual({
        type: 'accepted',
        userId: 'u2',
      });
      vi.useRealTimers();
      await expect(posted).resolves.toEqual({ type: 'accepted', userId: 'u2' });
    } finally {
      window.removeEventListener('orbit:friends-changed', inPage);
      otherTab.close();
      stop();
    }
  });

  it('does not tell other tabs of an action the server refused', async () => {
    const inPage = vi.fn<(event: Event) => void>();
    window.addEventListener('orbit:friends-changed', inPage);
    fetchMock.mockResolvedValueOnce(json({ error: 'nope' }, 409));
    await useFriends.getState().act('request', 'u2');
    window.removeEventListener('orbit:friends-changed', inPage);
    expect(inPage).not.toHaveBeenCalled();
  });

  it('re-fetches a member’s status 300 ms after another tab changed it', async () => {
    fetchMock.mockResolvedValue(json({ status: 'friends' }));
    receiveFriendChange({ type: 'accepted', userId: 'u2' });
    await vi.advanceTimersByTimeAsync(299);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock.mock.calls[0]?.[0]).toContain('/api/users/friends/status?userId=u2');
    await vi.waitFor(() => expect(statusOf('u2')).toBe('friends'));
  });

  it('takes another tab’s change once: no re-fetch when the friend event came first', async () => {
    receiveFriendChange({ type: 'accepted', userId: 'u2' });
    await vi.advanceTimersByTimeAsync(100);
    receiveFriendEvent(
      'friend:accepted',
      { fromUserId: 'me', toUserId: 'u2', pairKey: 'me:u2' },
      'me',
    );
    fetchMock.mockResolvedValue(json({ incoming: 0, outgoing: 0, friends: 1 }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(statusOf('u2')).toBe('friends');
    expect(
      fetchMock.mock.calls.map(([url]) => url).filter((url) => url.includes('status')),
    ).toEqual([]);
  });

  it('ignores cross-tab messages without a member', async () => {
    receiveFriendChange({ type: 'accepted' });
    receiveFriendChange(null);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores a realtime update that would lower the status for 2.5 s after a local action', async () => {
    fetchMock.mockResolvedValueOnce(json({ status: 'friends' }));
    await useFriends.getState().act('accept', 'u2');
    useFriends.getState().applyRemote('u2', 'none');
    expect(statusOf('u2')).toBe('friends');
    vi.advanceTimersByTime(2_499);
    useFriends.getState().applyRemote('u2', 'incoming');
    expect(statusOf('u2')).toBe('friends');
    vi.advanceTimersByTime(2);
    useFriends.getState().applyRemote('u2', 'none');
    expect(statusOf('u2')).toBe('none');
  });

  it('asks the server again once the guard ends after ignoring an update', async () => {
    fetchMock.mockImplementation((url: string) =>
      Promise.resolve(
        url.includes('/accept')
          ? json({ status: 'friends' })
          : url.includes('/status')
            ? json({ status: 'none' })
            : json({ incoming: 0, outgoing: 0, friends: 0 }),
      ),
    );
    await useFriends.getState().act('accept', 'u2');
    useFriends.getState().applyRemote('u2', 'none');
    await vi.advanceTimersByTimeAsync(2_400);
    expect(statusOf('u2')).toBe('friends');
    const asked = () =>
      fetchMock.mock.calls.filter(([url]) => url.includes('/status?userId=u2')).length;
    expect(asked()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(asked()).toBe(1);
    await vi.waitFor(() => expect(statusOf('u2')).toBe('none'));
  });

  it('forgets every pending re-check and counts refresh at reset (logout)', async () => {
    fetchMock.mockImplementation((url: string) =>
      Promise.resolve(
        url.includes('/accept') ? json({ status: 'friends' }) : json({ status: 'none' }),
      ),
    );
    await useFriends.getState().act('accept', 'u2');
    useFriends.getState().applyRemote('u2', 'none');
    receiveFriendEvent(
      'friend:removed',
      { fromUserId: 'u4', toUserId: 'me', pairKey: 'me:u4' },
      'me',
    );
    const before = fetchMock.mock.calls.length;
    useFriends.getState().reset();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock.mock.calls.slice(before).map(([url]) => url)).toEqual([]);
  });

  it('lets a realtime update raise the status during the guard', async () => {
    fetchMock.mockResolvedValueOnce(json({ status: 'pending' }));
    await useFriends.getState().act('request', 'u2');
    useFriends.getState().applyRemote('u2', 'friends');
    expect(statusOf('u2')).toBe('friends');
  });

  it('serves a status from the cache for 30 s, then asks again', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ status: 'friend' }))
      .mockResolvedValueOnce(json({ status: 'none' }));
    await expect(useFriends.getState().fetchStatus('u2')).resolves.toBe('friends');
    vi.advanceTimersByTime(29_999);
    await expect(useFriends.getState().fetchStatus('u2')).resolves.toBe('friends');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2);
    await expect(useFriends.getState().fetchStatus('u2')).resolves.toBe('none');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('reads the status of a member on screen again at every (re)connect, and stops when hidden', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ status: 'none' }))
      .mockResolvedValueOnce(json({ status: 'received' }));
    const hide = useFriends.getState().show('u2');
    await vi.waitFor(() => expect(statusOf('u2')).toBe('none'));
    // A request sent before this tab's socket joined its room: no event will tell of it.
    refetchShown('connect');
    await vi.waitFor(() => expect(statusOf('u2')).toBe('incoming'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    hide();
    refetchShown('connect');
    refetchShown('online');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('drops an answer that comes after the reset (the member left)', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const asked = useFriends.getState().fetchStatus('u2');
    useFriends.getState().reset();
    answer(json({ status: 'friends' }));
    await asked;
    expect(useFriends.getState().statuses).toEqual({});
  });

  it('refreshes counts once, 350 ms after a burst of events', async () => {
    fetchMock.mockResolvedValue(json({ incoming: 2, outgoing: 0, friends: 5 }));
    const payload = { fromUserId: 'u2', toUserId: 'me', pairKey: 'me:u2' };
    receiveFriendEvent('friend:request:created', payload, 'me');
    await vi.advanceTimersByTimeAsync(200);
    receiveFriendEvent('friend:request:canceled', payload, 'me');
    await vi.advanceTimersByTimeAsync(349);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.waitFor(() =>
      expect(useFriends.getState().counts).toEqual({ incoming: 2, outgoing: 0, friends: 5 }),
    );
  });
});

describe('reading friend events', () => {
  const sent = { fromUserId: 'me', toUserId: 'u2', pairKey: 'me:u2' };
  const received = { fromUserId: 'u2', toUserId: 'me', pairKey: 'me:u2' };
  it('a request I sent is pending, one sent to me is incoming', () => {
    expect(statusAfterEvent('friend:request:created', sent, 'me')).toBe('pending');
    expect(statusAfterEvent('friend:request:created', received, 'me')).toBe('incoming');
  });
  it('accepted makes friends; canceled, declined and removed make none', () => {
    expect(statusAfterEvent('friend:accepted', received, 'me')).toBe('friends');
    for (const event of ['friend:request:canceled', 'friend:declined', 'friend:removed'] as const) {
      expect(statusAfterEvent(event, sent, 'me')).toBe('none');
    }
  });
  it('updates the other member of the pair', () => {
    useFriends.getState().reset();
    receiveFriendEvent('friend:request:created', received, 'me');
    expect(useFriends.getState().statuses.u2?.status).toBe('incoming');
  });
});
