import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../features/auth/store.ts';
import type { CurrentUser } from '../contracts/readers/user.ts';
import { closeDatabase } from '../lib/idb.ts';
import { readFriendRequests } from '../features/notifications/savedRequests.ts';
import { request } from '../test/notifications.ts';

const api = vi.hoisted(() => ({ page: vi.fn() }));
const friends = vi.hoisted(() => ({ incoming: vi.fn(), outgoing: vi.fn(), counts: vi.fn() }));
vi.mock('../features/notifications/api.ts', () => ({ notificationsApi: api }));
vi.mock('../features/friends/api.ts', () => ({ friendsApi: friends, readList: () => [] }));
// The tab's socket is not what these tests are about.
vi.mock('../lib/socket.ts', () => ({
  connectSocket: vi.fn(),
  disconnectSocket: vi.fn(),
  reconnectSocket: vi.fn(),
  onSocketEnded: () => () => undefined,
  onSocketEvent: () => () => undefined,
  onSocketConnect: () => () => undefined,
}));

const { useRealtime } = await import('./useRealtime.ts');
const { useNotifications } = await import('../features/notifications/store.ts');

const member = { id: 'u1', username: 'nova' } as CurrentUser;

function Shell() {
  useRealtime();
  return null;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  useSession.setState({ status: 'signedIn', user: member, error: null });
  api.page.mockResolvedValue({ notifications: [], nextCursor: null, unread: 0 });
  friends.counts.mockResolvedValue({ incoming: 0, outgoing: 0, friends: 0 });
  friends.outgoing.mockResolvedValue([]);
});
afterEach(async () => {
  cleanup();
  useNotifications.getState().reset();
  await closeDatabase();
});

describe('the shell going with the session', () => {
  it('lets a load still under way save nothing of the member who left', async () => {
    let answer: (list: unknown[]) => void = () => undefined;
    friends.incoming.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const shell = render(<Shell />);
    // The shell connects the member a task after it mounts.
    await vi.waitFor(() => expect(useNotifications.getState().userId).toBe('u1'));

    // Signed out (here, or in another tab): the guard takes the shell away.
    useSession.setState({ status: 'signedOut', user: null, error: null });
    shell.unmount();
    answer([request()]);
    await vi.waitFor(() => expect(friends.incoming).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(useNotifications.getState().userId).toBeNull();
    expect(await readFriendRequests('u1')).toBeNull();
  });

  it('keeps the member while they are still signed in', async () => {
    friends.incoming.mockResolvedValue([]);
    const shell = render(<Shell />);
    await vi.waitFor(() => expect(useNotifications.getState().userId).toBe('u1'));
    shell.unmount();
    expect(useNotifications.getState().userId).toBe('u1');
  });
});
