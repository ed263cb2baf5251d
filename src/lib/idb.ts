/**
 * The app's IndexedDB database, shared by the page and the service worker: friend-request
 * notifications, the current member, saved API answers and thumbnails. Everything but `meta` is
 * partitioned per member, and a member's partition goes at logout.
 */
import {
  type DBSchema,
  type IDBPDatabase,
  type IDBPTransaction,
  type StoreNames,
  openDB,
} from 'idb';
import type { FriendRequestCache } from '../contracts/notifications.ts';
import {
  type MediaUsage,
  type SavedMedia,
  type SavedResponse,
  type SharedFile,
  readCurrentMember as currentMemberOf,
  readMediaUsageRecord,
  readSavedMedia,
  readSavedResponse,
  readSharedFile,
} from '../contracts/offline.ts';
import { DB_NAME } from './constants.ts';
import { wipeAllOutboxes } from './outboxQueue.ts';

type MemberKey = [string, string];

interface OrbitDb extends DBSchema {
  friendRequests: { key: string; value: FriendRequestCache };
  meta: { key: string; value: string };
  responses: {
    key: MemberKey;
    value: SavedResponse;
    indexes: { byMemberSavedAt: [string, number] };
  };
  media: {
    key: MemberKey;
    value: SavedMedia;
    indexes: { byMemberLastUsed: [string, number]; byLastUsed: number };
  };
  mediaUsage: { key: string; value: MediaUsage };
  shared: { key: number; value: SharedFile; indexes: { byOwner: string } };
}

type Db = IDBPDatabase<OrbitDb>;
type Store = StoreNames<OrbitDb>;

const DB_VERSION = 3;

/** A shared photo nobody took into the upload flow within a day is dropped. */
export const SHARED_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Per member: at most this many thumbnails and avatars, and this many bytes of them. */
export const MEDIA_MAX_FILES = 2_000;
export const MEDIA_MAX_BYTES = 60 * 1024 * 1024;
/** Per member: at most this many saved API answers; the oldest go first. */
export const RESPONSES_MAX = 500;
/** A full disk frees at least this much (oldest media of anyone) before a write is tried again. */
const QUOTA_FREE_MIN_BYTES = 2 * 1024 * 1024;
const QUOTA_RETRIES = 3;

const CURRENT_MEMBER = 'currentMember';
const MEMBER_STORES = ['friendRequests', 'responses', 'media', 'mediaUsage', 'shared'] as const;
const ALL_STORES = ['meta', ...MEMBER_STORES] as const;

/** Every key of one member in a store keyed (or indexed) by [userId, …]. */
function memberRange(userId: string): IDBKeyRange {
  return IDBKeyRange.bound([userId], [userId, []]);
}

function upgradeSchema(database: Db, oldVersion: number) {
  if (oldVersion < 1) database.createObjectStore('friendRequests', { keyPath: 'userId' });
  if (oldVersion < 2) {
    database.createObjectStore('meta');
    const responses = database.createObjectStore('responses', { keyPath: ['userId', 'url'] });
    responses.createIndex('byMemberSavedAt', ['userId', 'savedAt']);
    const media = database.createObjectStore('media', { keyPath: ['userId', 'url'] });
    media.createIndex('byMemberLastUsed', ['userId', 'lastUsed']);
    media.createIndex('byLastUsed', 'lastUsed');
    database.createObjectStore('mediaUsage', { keyPath: 'userId' });
  }
  if (oldVersion < 3) {
    const shared = database.createObjectStore('shared', { keyPath: 'id', autoIncrement: true });
    shared.createIndex('byOwner', 'owner');
  }
}

let opening: Promise<Db> | null = null;

/**
 * Opens the database. A newer version elsewhere (a new worker or tab) makes this connection close
 * at once, and the next call opens again. An older tab that keeps the database open makes calls
 * fail at once instead of waiting (requests then go to the network) until that tab lets go.
 */
function open(): Promise<Db> {
  let reportBlocked = () => {};
  const blocked = new Promise<never>((_resolve, reject) => {
    reportBlocked = () => reject(new Error('An older Orbit tab keeps the database open.'));
  });
  const connection = openDB<OrbitDb>(DB_NAME, DB_VERSION, {
    upgrade: upgradeSchema,
    blocked: () => reportBlocked(),
    blocking(_current, _next, event) {
      forget(attempt, connection);
      (event.target as IDBDatabase).close();
    },
    terminated: () => forget(attempt, connection),
  });
  const attempt = Promise.race([connection, blocked]);
  connection.then(
    (database) => {
      if (opening === attempt) opening = connection;
      // Nobody holds it any more (closed while it was blocked): let the newer version through.
      else if (opening !== connection) database.close();
    },
    () => forget(attempt, connection),
  );
  attempt.catch(() => undefined);
  return attempt;
}

function forget(...attempts: Promise<Db>[]) {
  if (opening && attempts.includes(opening)) opening = null;
}

/** The database, or null where there is none (private mode, some tests). */
function db(): Promise<Db> | null {
  if (typeof indexedDB === 'undefined') return null;
  opening ??= open();
  return opening;
}

/** Runs `work` on the database; `fallback` when it is unavailable or the work fails. */
export async function using<T>(fallback: T, work: (database: Db) => Promise<T>): Promise<T> {
  try {
    const database = db();
    return database ? await work(await database) : fallback;
  } catch {
    return fallback;
  }
}

/** Closes this context's connection; the next call opens a new one. */
export async function closeDatabase(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current.catch(() => null))?.close();
}

function isQuotaError(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'QuotaExceededError';
}

/** Retries a write after a full disk, each time after freeing the oldest media of anyone. */
async function withQuotaRetry(database: Db, bytes: number, write: () => Promise<boolean>) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (!isQuotaError(error) || attempt >= QUOTA_RETRIES) throw error;
      const freed = await evictOldestMedia(database, Math.max(bytes, QUOTA_FREE_MIN_BYTES));
      if (freed === 0) throw error;
    }
  }
}

// The current member: written by the page, read by the worker before it saves or serves anything.

export async function readCurrentMember(): Promise<string | null> {
  return using(null, async (database) =>
    currentMemberOf(await database.get('meta', CURRENT_MEMBER)),
  );
}

async function deleteMemberData(
  tx: IDBPTransaction<OrbitDb, Store[], 'readwrite'>,
  userId: string,
): Promise<void> {
  await Promise.all([
    tx.objectStore('friendRequests').delete(userId),
    tx.objectStore('mediaUsage').delete(userId),
    tx.objectStore('responses').delete(memberRange(userId)),
    tx.objectStore('media').delete(memberRange(userId)),
    deleteSharedOf(tx, userId),
  ]);
}

/** Deletes the shared files kept for `owner`. */
async function deleteSharedOf(
  tx: IDBPTransaction<OrbitDb, Store[], 'readwrite'>,
  owner: string,
): Promise<void> {
  let cursor = await tx.objectStore('shared').index('byOwner').openCursor(owner);
  while (cursor) {
    await cursor.delete();
    cursor = await cursor.continue();
  }
}

/** Makes `userId` the current member; a different member recorded before loses their data. */
export async function setCurrentMember(userId: string): Promise<boolean> {
  return using(false, async (database) => {
    const tx = database.transaction([...ALL_STORES], 'readwrite');
    const previous = await tx.objectStore('meta').get(CURRENT_MEMBER);
    if (previous !== userId) {
      if (previous) await deleteMemberData(tx, previous);
      await tx.objectStore('meta').put(userId, CURRENT_MEMBER);
    }
    await tx.done;
    return true;
  });
}

/** Ends the current member's session here: their data goes with them. */
export async function endCurrentMember(): Promise<boolean> {
  return using(false, async (database) => {
    const tx = database.transaction([...ALL_STORES], 'readwrite');
    const previous = await tx.objectStore('meta').get(CURRENT_MEMBER);
    if (previous) {
      await deleteMemberData(tx, previous);
      await tx.objectStore('meta').delete(CURRENT_MEMBER);
    }
    await tx.done;
    return true;
  });
}

/**
 * Removes everything saved for `userId` here; if they are the current member, nobody is afterwards.
 * Their offline outbox is the worker's own database: it goes with the outbox's reset
 * (src/features/offline/outbox.ts) at the same moments.
 */
export async function wipeMember(userId: string): Promise<boolean> {
  return using(false, async (database) => {
    const tx = database.transaction([...ALL_STORES], 'readwrite');
    if ((await tx.objectStore('meta').get(CURRENT_MEMBER)) === userId) {
      await tx.objectStore('meta').delete(CURRENT_MEMBER);
    }
    await deleteMemberData(tx, userId);
    await tx.done;
    return true;
  });
}

/** Removes everything of everyone, the offline outboxes too. */
export async function wipeAll(): Promise<boolean> {
  await wipeAllOutboxes();
  return using(false, async (database) => {
    const tx = database.transaction([...ALL_STORES], 'readwrite');
    await Promise.all(ALL_STORES.map((name) => tx.objectStore(name).clear()));
    await tx.done;
    return true;
  });
}

// Saved API answers.

export async function readResponse(userId: string, url: string): Promise<SavedResponse | null> {
  return using(null, async (database) =>
    readSavedResponse(await database.get('responses', [userId, url])),
  );
}

/** Saves an answer for `userId` if they are still the current member; answers whether it did. */
export async function saveResponse(entry: Omit<SavedResponse, 'savedAt'>): Promise<boolean> {
  return using(false, (database) =>
    withQuotaRetry(database, entry.body.length * 2, () => putResponse(database, entry)),
  );
}

/** Forgets a saved answer of `userId`'s: the server no longer shows it to them. */
export async function deleteResponse(userId: string, url: string): Promise<boolean> {
  return using(false, async (database) => {
    await database.delete('responses', [userId, url]);
    return true;
  });
}

async function putResponse(database: Db, entry: Omit<SavedResponse, 'savedAt'>) {
  const tx = database.transaction(['meta', 'responses'], 'readwrite');
  if ((await tx.objectStore('meta').get(CURRENT_MEMBER)) !== entry.userId) {
    await tx.done;
    return false;
  }
  const store = tx.objectStore('responses');
  await store.put({ ...entry, savedAt: Date.now() });
  let extra =
    (await store.index('byMemberSavedAt').count(memberRange(entry.userId))) - RESPONSES_MAX;
  let cursor = await store.index('byMemberSavedAt').openCursor(memberRange(entry.userId));
  while (cursor && extra > 0) {
    await cursor.delete();
    extra -= 1;
    cursor = await cursor.continue();
  }
  await tx.done;
  return true;
}

// Saved thumbnails and avatars.

/** A saved file of `userId`, marked as just used. */
export async function readMedia(userId: string, url: string): Promise<SavedMedia | null> {
  return using(null, async (database) => {
    const tx = database.transaction('media', 'readwrite');
    const entry = readSavedMedia(await tx.store.get([userId, url]));
    if (!entry) return null;
    // Marking it used may finish after the answer; a failure only makes it older than it is.
    tx.store.put({ ...entry, lastUsed: Date.now() }).catch(() => undefined);
    tx.done.catch(() => undefined);
    return entry;
  });
}

/**
 * Saves a file for `userId` if they are still the current member, then removes their least
 * recently used files beyond the caps. A full disk frees space and tries again.
 */
export async function saveMedia(userId: string, url: string, blob: Blob): Promise<boolean> {
  if (blob.size > MEDIA_MAX_BYTES) return false;
  return using(false, (database) =>
    withQuotaRetry(database, blob.size, () =>
      putMedia(database, { userId, url, blob, bytes: blob.size, lastUsed: Date.now() }),
    ),
  );
}

async function putMedia(database: Db, entry: SavedMedia): Promise<boolean> {
  const tx = database.transaction(['meta', 'media', 'mediaUsage'], 'readwrite');
  if ((await tx.objectStore('meta').get(CURRENT_MEMBER)) !== entry.userId) {
    await tx.done;
    return false;
  }
  const media = tx.objectStore('media');
  const usageStore = tx.objectStore('mediaUsage');
  const previous = await media.get([entry.userId, entry.url]);
  const usage = (await usageStore.get(entry.userId)) ?? {
    userId: entry.userId,
    files: 0,
    bytes: 0,
  };
  usage.files += previous ? 0 : 1;
  usage.bytes += entry.bytes - (previous?.bytes ?? 0);
  await media.put(entry);
  let cursor = await media.index('byMemberLastUsed').openCursor(memberRange(entry.userId));
  while (cursor && (usage.files > MEDIA_MAX_FILES || usage.bytes > MEDIA_MAX_BYTES)) {
    if (cursor.value.url !== entry.url) {
      usage.files -= 1;
      usage.bytes -= cursor.value.bytes;
      await cursor.delete();
    }
    cursor = await cursor.continue();
  }
  await usageStore.put(usage);
  await tx.done;
  return true;
}

/** Removes the least recently used media of any member until `bytes` are free; answers the bytes freed. */
async function evictOldestMedia(database: Db, bytes: number): Promise<number> {
  const tx = database.transaction(['media', 'mediaUsage'], 'readwrite');
  const usageStore = tx.objectStore('mediaUsage');
  let freed = 0;
  let cursor = await tx.objectStore('media').index('byLastUsed').openCursor();
  while (cursor && freed < bytes) {
    const { userId, bytes: size } = cursor.value;
    const usage = await usageStore.get(userId);
    if (usage)
      await usageStore.put({ ...usage, files: usage.files - 1, bytes: usage.bytes - size });
    await cursor.delete();
    freed += Math.max(size, 1);
    cursor = await cursor.continue();
  }
  await tx.done;
  return freed;
}

/** What `userId`'s saved media add up to. */
export async function readMediaUsage(userId: string): Promise<{ files: number; bytes: number }> {
  return using({ files: 0, bytes: 0 }, async (database) => {
    const usage = readMediaUsageRecord(await database.get('mediaUsage', userId));
    return { files: usage?.files ?? 0, bytes: usage?.bytes ?? 0 };
  });
}

// Photos shared into Orbit from another app.

/** Keeps shared files for `owner` (null: nobody is signed in); answers whether it did. */
export async function saveSharedFiles(
  owner: string | null,
  files: readonly { file: Blob; name: string; type: string }[],
  now = Date.now(),
): Promise<boolean> {
  return using(false, async (database) => {
    const tx = database.transaction('shared', 'readwrite');
    for (const { file, name, type } of files)
      await tx.store.add({ owner: owner ?? '', file, name, type, sharedAt: now });
    await tx.done;
    return true;
  });
}

/** A shared file handed to the page: its key, to forget it once sent or removed. */
export interface ClaimedShare {
  id: number;
  file: Blob;
  name: string;
  type: string;
}

/**
 * The shared files waiting for `userId`: theirs, and those shared while nobody was signed in,
 * which become theirs. Files older than a day are dropped; another member's are never answered.
 */
export async function claimSharedFiles(userId: string, now = Date.now()): Promise<ClaimedShare[]> {
  return using([], async (database) => {
    const tx = database.transaction('shared', 'readwrite');
    const claimed: ClaimedShare[] = [];
    let cursor = await tx.store.openCursor();
    while (cursor) {
      const entry = readSharedFile(cursor.value);
      if (!entry || now - entry.sharedAt > SHARED_MAX_AGE_MS) {
        await cursor.delete();
      } else if (entry.owner === userId || entry.owner === '') {
        if (entry.owner === '') await cursor.update({ ...entry, owner: userId });
        claimed.push({
          id: cursor.primaryKey,
          file: entry.file,
          name: entry.name,
          type: entry.type,
        });
      }
      cursor = await cursor.continue();
    }
    await tx.done;
    return claimed;
  });
}

/** Forgets shared files: sent on, or removed by the member. */
export async function forgetSharedFiles(ids: readonly number[]): Promise<boolean> {
  return using(false, async (database) => {
    const tx = database.transaction('shared', 'readwrite');
    await Promise.all(ids.map((id) => tx.store.delete(id)));
    await tx.done;
    return true;
  });
}
