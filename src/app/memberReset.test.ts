/**
 * One reset (docs/decisions.md "One reset"): every way a member's session ends in this tab empties
 * every store of member state, through the real stores and the real session store.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDatabase, readCurrentMember, readResponse, saveResponse } from '../lib/idb.ts';
import { useFriends } from '../features/friends/store.ts';
import { useGallery } from '../features/gallery/store.ts';
import { galleryImage } from '../test/gallery.ts';
import { useModeration } from '../features/moderation/store.ts';
import { report } from '../test/moderation.ts';
import { useNotifications } from '../features/notifications/store.ts';
import { note } from '../test/notifications.ts';
import { connectOfflineSession } from '../features/offline/offlineSession.ts';
import { useProfiles } from '../features/profile/store.ts';
import { usePush } from '../features/push/store.ts';
import { useSearch } from '../features/search/store.ts';
import { endDeletedAccount } from '../features/settings/leaving.ts';
import { useSettingsData } from '../features/settings/store.ts';
import { onUnauthorized } from '../lib/serverState.ts';
import { checkSessionAfter401 } from './useRealtime.ts';
import { receiveAuthMessage, useSession } from '../features/auth/store.ts';
import type { CurrentUser } from '../contracts/readers/user.ts';

const alice = { id: 'alice-id', username: 'alice' } as CurrentUser;
const bob = { id: 'bob-id', username: 'bob' } as CurrentUser;
const ME = 'https://orbit.test/api/auth/me';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The server as these tests need it: `/me` says who is signed in, any other member call 401s. */
function server(signedIn: CurrentUser | null) {
  const answer = (url: string) => {
    const { pathname } = new URL(url, 'https://orbit.test');
    if (pathname === '/api/auth/me') return json({ user: signedIn });
    if (pathname === '/api/auth/logout') return new Response(null, { status: 204 });
    if (pathname === '/api/users/friends/status' && signedIn) return json({ status: 'none' });
    return json({ error: 'Sign in first.' }, 401);
  };
  const fetch = vi.fn((url: string) => Promise.resolve(answer(url)));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** Alice's state in every store, as a visit would leave it. */
async function fillWithAlice() {
  const image = galleryImage('alice-photo');
  useGallery.setState({
    galleries: { 'alice-id': { status: 'ready', items: [image], folders: ['All', 'Trips'] } },
    selectedFolder: { 'alice-id': 'Trips' },
    online: { 'alice-id': true },
    gone: { 'old-photo': true },
  });
  useFriends.setState({
    statuses: { 'friend-id': { status: 'friends', fetchedAt: Date.now() } },
    counts: { incoming: 1, outgoing: 0, friends: 1 },
  });
  useNotifications.setState({
    userId: alice.id,
    server: { status: 'ready', items: [note()] },
    items: [note()],
    unread: 1,
    loaded: true,
  });
  useModeration.setState({ lists: { open: { status: 'ready', items: [report('7')] } } });
  useProfiles.setState({
    profiles: { friend: { status: 'ready', value: { user: bob, themeWord: 'dark' } } },
    friends: { alice: { status: 'ready', value: [] } },
  });
  useSearch.setState({ results: { fri: { status: 'ready', value: [] } } });
  useSettingsData.setState({ blocks: { me: { status: 'ready', value: [] } } });
  usePush.setState({ status: 'enabled' });
  await saveResponse({
    userId: alice.id,
    url: ME,
    status: 200,
    contentType: 'application/json',
    body: '{}',
  });
}

/** Nothing of Alice is held anywhere. */
async function expectNothingOfAlice() {
  const gallery = useGallery.getState();
  expect([gallery.galleries, gallery.selectedFolder, gallery.online, gallery.gone]).toEqual([
    {},
    {},
    {},
    {},
  ]);
  expect(useFriends.getState()).toMatchObject({
    statuses: {},
    counts: { incoming: 0, outgoing: 0, friends: 0 },
  });
  expect(useNotifications.getState()).toMatchObject({ userId: null, items: [], unread: 0 });
  expect(useModeration.getState().lists).toEqual({});
  expect(useProfiles.getState()).toMatchObject({ profiles: {}, friends: {} });
  expect(useSearch.getState().results).toEqual({});
  expect(useSettingsData.getState()).toMatchObject({ member: {}, blocks: {} });
  expect(usePush.getState().status).toBe('checking');
  await vi.waitFor(async () => expect(await readResponse(alice.id, ME)).toBeNull());
  expect(await readCurrentMember()).not.toBe(alice.id);
}

let stopOffline = () => {};

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  stopOffline = connectOfflineSession();
  useSession.setState({ status: 'signedIn', user: alice, error: null });
  await vi.waitFor(async () => expect(await readCurrentMember()).toBe(alice.id));
  await fillWithAlice();
});
afterEach(async () => {
  stopOffline();
  vi.unstubAllGlobals();
  await closeDatabase();
});

describe('one reset of the member’s state', () => {
  it('runs at logout, before logout answers', async () => {
    server(null);
    await useSession.getState().logout();
    await expectNothingOfAlice();
  });

  it('runs when another tab logs out', async () => {
    receiveAuthMessage({ type: 'logout' });
    await expectNothingOfAlice();
  });

  it('runs when the account is deleted', async () => {
    server(null);
    await endDeletedAccount(alice);
    await expectNothingOfAlice();
  });

  it('runs when the session check after the server ended the socket finds nobody (a suspension)', async () => {
    server(null);
    await useSession.getState().load();
    expect(useSession.getState().status).toBe('signedOut');
    await expectNothingOfAlice();
  });

  it('runs when a call answers 401 and the session check finds the session ended', async () => {
    // As the shell wires it (src/app/useRealtime.ts).
    const stop = onUnauthorized(checkSessionAfter401);
    server(null);
    await expect(useFriends.getState().fetchStatus('someone')).rejects.toThrow();
    await vi.waitFor(() => expect(useSession.getState().status).toBe('signedOut'));
    await expectNothingOfAlice();
    stop();
  });

  it('runs when another member signs in here', async () => {
    useSession.setState({ status: 'signedIn', user: bob, error: null });
    await expectNothingOfAlice();
  });

  it('keeps everything while the member stays signed in', async () => {
    server(alice);
    useSession.getState().setUser({ ...alice, fullName: 'Alice Nova' });
    await useSession.getState().load();
    expect(useSession.getState().user?.id).toBe(alice.id);
    expect(Object.keys(useGallery.getState().galleries)).toEqual(['alice-id']);
    expect(useModeration.getState().lists.open?.items).toHaveLength(1);
    expect(await readResponse(alice.id, ME)).not.toBeNull();
  });

  it('keeps the saved copies when the server could not be reached, and empties the rest', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await useSession.getState().load();
    expect(useSession.getState().status).toBe('signedOut');
    expect(useSession.getState().error).not.toBeNull();
    expect(useGallery.getState().galleries).toEqual({});
    expect(await readResponse(alice.id, ME)).not.toBeNull();
  });
});
