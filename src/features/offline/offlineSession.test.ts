import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_UNREACHABLE, receiveAuthMessage, useSession } from '../auth/store.ts';
import { type CurrentUser, normaliseUser } from '../../contracts/readers/user.ts';
import { closeDatabase, readCurrentMember, readResponse, saveResponse } from '../../lib/idb.ts';
import { readFriendRequests, writeFriendRequests } from '../notifications/savedRequests.ts';
import { connectOfflineSession } from './offlineSession.ts';

const member = (id: string) => normaliseUser({ id, username: id }) as CurrentUser;
const ALICE = member('alice-id');
const BOB = member('bob-id');
const ME = 'https://orbit.test/api/auth/me';

async function signIn(user: CurrentUser) {
  useSession.setState({ status: 'signedIn', user, error: null });
  await vi.waitFor(async () => expect(await readCurrentMember()).toBe(user.id));
}

/** What the worker would have saved for the member while they used the app. */
async function saveSomethingFor(user: CurrentUser) {
  await writeFriendRequests({ userId: user.id, items: [], dismissed: ['r1'] });
  expect(
    await saveResponse({
      userId: user.id,
      url: ME,
      status: 200,
      contentType: 'application/json',
      body: '{}',
    }),
  ).toBe(true);
}

async function hasNothingOf(user: CurrentUser) {
  expect(await readCurrentMember()).toBeNull();
  expect(await readResponse(user.id, ME)).toBeNull();
  expect(await readFriendRequests(user.id)).toBeNull();
}

let disconnect = () => {};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  useSession.setState({ status: 'loading', user: null, error: null });
  disconnect = connectOfflineSession();
});

afterEach(async () => {
  disconnect();
  await closeDatabase();
});

describe('the offline session', () => {
  it('records the signed-in member for the worker', async () => {
    await signIn(ALICE);
    expect(await readCurrentMember()).toBe(ALICE.id);
  });

  it('wipes the member’s saved data with the rest of their state, before logout answers', async () => {
    await signIn(ALICE);
    await saveSomethingFor(ALICE);
    const fetch = vi.fn(() =>
      Promise.resolve(new Response('{}', { headers: { 'Content-Type': 'application/json' } })),
    );
    vi.stubGlobal('fetch', fetch);

    await useSession.getState().logout();
    await hasNothingOf(ALICE);
  });

  it('wipes it when another tab logs out', async () => {
    await signIn(ALICE);
    await saveSomethingFor(ALICE);
    receiveAuthMessage({ type: 'logout' });
    await vi.waitFor(() => hasNothingOf(ALICE));
  });

  it('wipes it when the server says nobody is signed in', async () => {
    await signIn(ALICE);
    await saveSomethingFor(ALICE);
    useSession.setState({ status: 'signedOut', user: null, error: null });
    await vi.waitFor(() => hasNothingOf(ALICE));
  });

  it('keeps it when the server cannot be reached', async () => {
    await signIn(ALICE);
    await saveSomethingFor(ALICE);
    useSession.setState({ status: 'signedOut', user: null, error: AUTH_UNREACHABLE });
    // IndexedDB runs transactions on the same stores in the order they were made: a wipe this
    // change started would be made before these reads, and they would see it.
    expect(await readCurrentMember()).toBe(ALICE.id);
    expect(await readResponse(ALICE.id, ME)).not.toBeNull();
  });

  it('wipes the previous member’s data when someone else signs in', async () => {
    await signIn(ALICE);
    await saveSomethingFor(ALICE);
    await signIn(BOB);
    expect(await readResponse(ALICE.id, ME)).toBeNull();
    expect(await readFriendRequests(ALICE.id)).toBeNull();
  });
});
