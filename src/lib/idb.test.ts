// @vitest-environment node
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MEDIA_MAX_BYTES,
  MEDIA_MAX_FILES,
  RESPONSES_MAX,
  SHARED_MAX_AGE_MS,
  claimSharedFiles,
  closeDatabase,
  endCurrentMember,
  forgetSharedFiles,
  readCurrentMember,
  readMedia,
  readMediaUsage,
  readResponse,
  saveMedia,
  saveResponse,
  saveSharedFiles,
  using,
  setCurrentMember,
  wipeAll,
  wipeMember,
} from './idb.ts';
import { DB_NAME } from './constants.ts';

const ALICE = 'alice-id';
const BOB = 'bob-id';
const THUMB = 'https://orbit.test/uploads/gallery/a-thumb.webp';

const blobOf = (bytes: number) => new Blob([new Uint8Array(bytes)], { type: 'image/webp' });
/** The friend-request store as the notifications feature keeps it (its own module reads it by contract). */
const writeFriendRequests = (cache: { userId: string; items: never[]; dismissed: string[] }) =>
  using(undefined, async (database) => {
    await database.put('friendRequests', { ...cache, savedAt: Date.now() });
  });
const readFriendRequests = (userId: string) =>
  using(null, async (database) => (await database.get('friendRequests', userId)) ?? null);
const answer = (userId: string, url: string, body = '{"ok":true}') => ({
  userId,
  url,
  status: 200,
  contentType: 'application/json',
  body,
});

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  vi.useFakeTimers({ toFake: ['Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  await closeDatabase();
});

describe('the current member', () => {
  it('is nobody at first, then whoever the page sets', async () => {
    expect(await readCurrentMember()).toBeNull();
    await setCurrentMember(ALICE);
    expect(await readCurrentMember()).toBe(ALICE);
  });

  it('loses the previous member’s data when another member becomes current', async () => {
    await setCurrentMember(ALICE);
    await saveResponse(answer(ALICE, '/api/auth/me'));
    await setCurrentMember(ALICE);
    expect(await readResponse(ALICE, '/api/auth/me')).not.toBeNull();

    await setCurrentMember(BOB);
    expect(await readResponse(ALICE, '/api/auth/me')).toBeNull();
  });

  it('ends with their data and leaves nobody current', async () => {
    await setCurrentMember(ALICE);
    await saveMedia(ALICE, THUMB, blobOf(10));
    await endCurrentMember();
    expect(await readCurrentMember()).toBeNull();
    expect(await readMedia(ALICE, THUMB)).toBeNull();
  });
});

describe('saved API answers', () => {
  it('are saved and read back per member and URL', async () => {
    await setCurrentMember(ALICE);
    expect(await saveResponse(answer(ALICE, '/api/users/friends/counts', '{"friends":3}'))).toBe(
      true,
    );
    const saved = await readResponse(ALICE, '/api/users/friends/counts');
    expect(saved).toMatchObject({ body: '{"friends":3}', contentType: 'application/json' });
    expect(saved?.savedAt).toBe(Date.now());
    expect(await readResponse(BOB, '/api/users/friends/counts')).toBeNull();
  });

  it('are not saved for someone who is not the current member', async () => {
    expect(await saveResponse(answer(ALICE, '/api/auth/me'))).toBe(false);
    await setCurrentMember(BOB);
    expect(await saveResponse(answer(ALICE, '/api/auth/me'))).toBe(false);
    expect(await readResponse(ALICE, '/api/auth/me')).toBeNull();
  });

  it(`keep the newest ${RESPONSES_MAX} of a member`, async () => {
    await setCurrentMember(ALICE);
    for (let index = 0; index <= RESPONSES_MAX; index += 1) {
      vi.setSystemTime(1_000 + index);
      await saveResponse(answer(ALICE, `/api/users/profile/m${index}`));
    }
    expect(await readResponse(ALICE, '/api/users/profile/m0')).toBeNull();
    expect(await readResponse(ALICE, '/api/users/profile/m1')).not.toBeNull();
    expect(await readResponse(ALICE, `/api/users/profile/m${RESPONSES_MAX}`)).not.toBeNull();
  });
});

describe('saved media', () => {
  it('come back as the same bytes and type, and count towards the member’s usage', async () => {
    await setCurrentMember(ALICE);
    const blob = new Blob(['thumbnail bytes'], { type: 'image/webp' });
    expect(await saveMedia(ALICE, THUMB, blob)).toBe(true);
    const saved = await readMedia(ALICE, THUMB);
    expect(saved?.blob.type).toBe('image/webp');
    expect(await saved?.blob.text()).toBe('thumbnail bytes');
    expect(await readMediaUsage(ALICE)).toEqual({ files: 1, bytes: blob.size });

    await saveMedia(ALICE, THUMB, blobOf(4));
    expect(await readMediaUsage(ALICE)).toEqual({ files: 1, bytes: 4 });
  });

  it('are not saved for someone who is not the current member', async () => {
    await setCurrentMember(BOB);
    expect(await saveMedia(ALICE, THUMB, blobOf(10))).toBe(false);
    expect(await readMedia(ALICE, THUMB)).toBeNull();
    expect(await readMedia(BOB, THUMB)).toBeNull();
  });

  it(`evict the least recently used file beyond ${MEDIA_MAX_FILES} files`, async () => {
    await setCurrentMember(ALICE);
    const url = (index: number) => `https://orbit.test/uploads/gallery/${index}-thumb.webp`;
    for (let index = 0; index < MEDIA_MAX_FILES; index += 1) {
      vi.setSystemTime(1_000 + index);
      await saveMedia(ALICE, url(index), blobOf(1));
    }
    // Using the oldest makes the second oldest the least recently used.
    vi.setSystemTime(10_000);
    expect(await readMedia(ALICE, url(0))).not.toBeNull();
    vi.setSystemTime(10_001);
    await saveMedia(ALICE, url(MEDIA_MAX_FILES), blobOf(1));

    expect(await readMediaUsage(ALICE)).toEqual({ files: MEDIA_MAX_FILES, bytes: MEDIA_MAX_FILES });
    expect(await readMedia(ALICE, url(1))).toBeNull();
    expect(await readMedia(ALICE, url(0))).not.toBeNull();
    expect(await readMedia(ALICE, url(2))).not.toBeNull();
    expect(await readMedia(ALICE, url(MEDIA_MAX_FILES))).not.toBeNull();
  }, 60_000);

  it('evict the least recently used files beyond the byte cap', async () => {
    await setCurrentMember(ALICE);
    const third = Math.floor(MEDIA_MAX_BYTES / 3);
    for (const [index, name] of ['a', 'b', 'c'].entries()) {
      vi.setSystemTime(1_000 + index);
      await saveMedia(ALICE, `/uploads/gallery/${name}-thumb.webp`, blobOf(third));
    }
    vi.setSystemTime(2_000);
    await saveMedia(ALICE, '/uploads/gallery/d-thumb.webp', blobOf(third));

    expect(await readMedia(ALICE, '/uploads/gallery/a-thumb.webp')).toBeNull();
    expect(await readMedia(ALICE, '/uploads/gallery/b-thumb.webp')).not.toBeNull();
    expect(await readMediaUsage(ALICE)).toEqual({ files: 3, bytes: 3 * third });
  });

  it('refuse a single file larger than the byte cap', async () => {
    await setCurrentMember(ALICE);
    expect(await saveMedia(ALICE, THUMB, blobOf(MEDIA_MAX_BYTES + 1))).toBe(false);
    expect(await readMediaUsage(ALICE)).toEqual({ files: 0, bytes: 0 });
  });

  it('free the oldest files and try again when the disk is full', async () => {
    await setCurrentMember(ALICE);
    vi.setSystemTime(1_000);
    await saveMedia(ALICE, '/uploads/avatars/old.webp', blobOf(100));
    vi.setSystemTime(2_000);
    await saveMedia(ALICE, '/uploads/avatars/recent.webp', blobOf(100));

    const put = vi.spyOn(IDBObjectStore.prototype, 'put');
    put.mockImplementationOnce(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    vi.setSystemTime(3_000);
    expect(await saveMedia(ALICE, THUMB, blobOf(50))).toBe(true);

    expect(await readMedia(ALICE, THUMB)).not.toBeNull();
    expect(await readMedia(ALICE, '/uploads/avatars/old.webp')).toBeNull();
    expect(await readMediaUsage(ALICE)).toEqual({ files: 1, bytes: 50 });
  });

  it('give up quietly when a full disk has nothing left to free', async () => {
    await setCurrentMember(ALICE);
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    expect(await saveMedia(ALICE, THUMB, blobOf(50))).toBe(false);
    expect(await saveResponse(answer(ALICE, '/api/auth/me'))).toBe(false);
  });
});

describe('wiping', () => {
  async function fillFor(userId: string) {
    await setCurrentMember(userId);
    await writeFriendRequests({ userId, items: [], dismissed: ['r1'] });
    await saveResponse(answer(userId, '/api/auth/me'));
    await saveMedia(userId, THUMB, blobOf(10));
  }

  it('one member removes all of theirs and nothing of anyone else', async () => {
    await fillFor(ALICE);
    await writeFriendRequests({ userId: BOB, items: [], dismissed: ['r2'] });

    await wipeMember(ALICE);
    expect(await readCurrentMember()).toBeNull();
    expect(await readFriendRequests(ALICE)).toBeNull();
    expect(await readResponse(ALICE, '/api/auth/me')).toBeNull();
    expect(await readMedia(ALICE, THUMB)).toBeNull();
    expect(await readMediaUsage(ALICE)).toEqual({ files: 0, bytes: 0 });
    expect(await readFriendRequests(BOB)).toMatchObject({ dismissed: ['r2'] });
  });

  it('one member leaves another current member in place', async () => {
    await fillFor(ALICE);
    await wipeMember(BOB);
    expect(await readCurrentMember()).toBe(ALICE);
    expect(await readResponse(ALICE, '/api/auth/me')).not.toBeNull();
    expect(await readMedia(ALICE, THUMB)).not.toBeNull();
  });

  it('everything leaves nothing of anyone', async () => {
    await fillFor(ALICE);
    await wipeAll();
    expect(await readCurrentMember()).toBeNull();
    expect(await readFriendRequests(ALICE)).toBeNull();
    expect(await readResponse(ALICE, '/api/auth/me')).toBeNull();
    expect(await readMedia(ALICE, THUMB)).toBeNull();
  });
});

describe('the schema', () => {
  it('keeps the friend requests of version 1 when it upgrades', async () => {
    const old = await openDB(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('friendRequests', { keyPath: 'userId' });
      },
    });
    await old.put('friendRequests', { userId: ALICE, items: [], dismissed: ['r1'], savedAt: 5 });
    old.close();

    expect(await readFriendRequests(ALICE)).toEqual({
      userId: ALICE,
      items: [],
      dismissed: ['r1'],
      savedAt: 5,
    });
    await setCurrentMember(ALICE);
    expect(await saveMedia(ALICE, THUMB, blobOf(3))).toBe(true);
  });

  it('counts a record that does not fit its contract as missing, beside one that does', async () => {
    await setCurrentMember(ALICE);
    expect(await saveResponse(answer(ALICE, 'https://orbit.test/api/ok'))).toBe(true);
    expect(await saveMedia(ALICE, THUMB, blobOf(3))).toBe(true);
    await closeDatabase();
    const raw = await openDB(DB_NAME);
    await raw.put('responses', { userId: ALICE, url: 'https://orbit.test/api/bad', status: '200' });
    await raw.put('media', { userId: ALICE, url: `${THUMB}?bad`, blob: 'bytes', bytes: 5 });
    await raw.put('mediaUsage', { userId: ALICE, files: '1', bytes: 3 });
    await raw.put('responses', {
      ...answer(ALICE, 'https://orbit.test/api/old'),
      savedAt: 1,
      body: 7,
    });
    raw.close();

    expect(await readResponse(ALICE, 'https://orbit.test/api/bad')).toBeNull();
    expect(await readMedia(ALICE, `${THUMB}?bad`)).toBeNull();
    expect(await readResponse(ALICE, 'https://orbit.test/api/old')).toBeNull();
    expect(await readMediaUsage(ALICE)).toEqual({ files: 0, bytes: 0 });
    expect((await readResponse(ALICE, 'https://orbit.test/api/ok'))?.body).toBe('{"ok":true}');
    expect((await readMedia(ALICE, THUMB))?.bytes).toBe(3);

    await closeDatabase();
    const again = await openDB(DB_NAME);
    await again.put('meta', '', 'currentMember');
    again.close();
    expect(await readCurrentMember()).toBeNull();
  });

  it('closes its connection when a newer version asks, and opens again when needed', async () => {
    await setCurrentMember(ALICE);
    const blocked = vi.fn();
    // Far above any version of the app's own.
    const newer = await openDB(DB_NAME, 100, { blocked });
    expect(blocked).not.toHaveBeenCalled();
    newer.close();
    await new Promise<void>((resolve) => {
      indexedDB.deleteDatabase(DB_NAME).onsuccess = () => resolve();
    });

    expect(await readCurrentMember()).toBeNull();
    await setCurrentMember(BOB);
    expect(await readCurrentMember()).toBe(BOB);
  });

  it('does not wait for an older tab that keeps the database open', async () => {
    const old = await openDB(DB_NAME, 1, {
      upgrade(database) {
        database.createObjectStore('friendRequests', { keyPath: 'userId' });
      },
    });
    expect(await setCurrentMember(ALICE)).toBe(false);
    expect(await readCurrentMember()).toBeNull();

    old.close();
    await vi.waitFor(async () => expect(await setCurrentMember(ALICE)).toBe(true));
    expect(await readCurrentMember()).toBe(ALICE);
  });
});

describe('photos shared into Orbit', () => {
  const photo = (name: string) => ({ file: blobOf(10), name, type: 'image/webp' });
  const names = (claimed: { name: string }[]) => claimed.map((entry) => entry.name).sort();

  it("hands a member their own shares and those made signed out, never another's", async () => {
    await saveSharedFiles(ALICE, [photo('alice.webp')]);
    await saveSharedFiles(null, [photo('nobody.webp')]);
    await saveSharedFiles(BOB, [photo('bob.webp')]);

    expect(names(await claimSharedFiles(ALICE))).toEqual(['alice.webp', 'nobody.webp']);
    // The signed-out share became Alice's: Bob does not get it too.
    expect(names(await claimSharedFiles(BOB))).toEqual(['bob.webp']);
    const [first] = await claimSharedFiles(ALICE);
    expect(first?.file).toBeInstanceOf(Blob);
    expect(first?.file.size).toBe(10);
  });

  it('drops shares older than a day', async () => {
    const start = Date.now();
    await saveSharedFiles(null, [photo('old.webp')], start);
    await saveSharedFiles(null, [photo('new.webp')], start + SHARED_MAX_AGE_MS);
    const later = start + SHARED_MAX_AGE_MS + 1;
    expect(names(await claimSharedFiles(ALICE, later))).toEqual(['new.webp']);
    // Gone from the device, not only left out.
    expect(names(await claimSharedFiles(ALICE, start))).toEqual(['new.webp']);
  });

  it('forgets a share once sent on or removed', async () => {
    await saveSharedFiles(ALICE, [photo('one.webp'), photo('two.webp')]);
    const claimed = await claimSharedFiles(ALICE);
    await forgetSharedFiles(claimed.filter((entry) => entry.name === 'one.webp').map((e) => e.id));
    expect(names(await claimSharedFiles(ALICE))).toEqual(['two.webp']);
  });

  it("goes with the member's other copies at logout and when another member takes over", async () => {
    await setCurrentMember(ALICE);
    await saveSharedFiles(ALICE, [photo('alice.webp')]);
    await endCurrentMember();
    expect(await claimSharedFiles(ALICE)).toEqual([]);

    await setCurrentMember(ALICE);
    await saveSharedFiles(ALICE, [photo('again.webp')]);
    await saveSharedFiles(null, [photo('nobody.webp')]);
    await setCurrentMember(BOB);
    expect(names(await claimSharedFiles(ALICE))).toEqual(['nobody.webp']);

    await saveSharedFiles(BOB, [photo('bob.webp')]);
    await wipeMember(BOB);
    expect(await claimSharedFiles(BOB)).toEqual([]);
  });
});
