import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME } from '../../lib/constants.ts';
import { closeDatabase, setCurrentMember } from '../../lib/idb.ts';
import { readFriendRequests, writeFriendRequests } from './savedRequests.ts';

const ALICE = 'alice-id';
const request = {
  id: '7',
  type: 'friend_request',
  actor: { id: 'bob-id', username: 'bob', profileImage: '' },
  message: '@bob sent you a friend request',
  link: '/profile/bob',
  createdAt: '2026-11-28T10:00:00.000Z',
  read: false,
  requestId: 'alice-id:bob-id',
} as const;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});
afterEach(() => closeDatabase());

describe('the saved friend requests', () => {
  it('come back as they were written', async () => {
    await setCurrentMember(ALICE);
    await writeFriendRequests({ userId: ALICE, items: [request], dismissed: ['r1'] });
    expect(await readFriendRequests(ALICE)).toMatchObject({
      userId: ALICE,
      items: [request],
      dismissed: ['r1'],
    });
  });

  it('count as missing when a notification in them does not fit its contract', async () => {
    await setCurrentMember(ALICE);
    await closeDatabase();
    const raw = await openDB(DB_NAME);
    await raw.put('friendRequests', {
      userId: ALICE,
      items: [{ _id: 1 }],
      dismissed: [],
      savedAt: 1,
    });
    raw.close();
    expect(await readFriendRequests(ALICE)).toBeNull();
  });
});
