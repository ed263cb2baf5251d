import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import type { Notification } from '../contracts/notifications.ts';

/** One member's synthesised friend-request notifications, and the requests they dismissed. */
export interface FriendRequestCache {
  userId: string;
  items: Notification[];
  dismissed: string[];
  savedAt: number;
}

interface OrbitDb extends DBSchema {
  friendRequests: { key: string; value: FriendRequestCache };
}

export const DB_NAME = 'orbit';
export const DB_VERSION = 1;

let opening: Promise<IDBPDatabase<OrbitDb>> | null = null;

/** The app's database; unavailable (private mode, tests) means every call quietly does nothing. */
function db(): Promise<IDBPDatabase<OrbitDb>> | null {
  if (typeof indexedDB === 'undefined') return null;
  opening ??= openDB<OrbitDb>(DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion) {
      if (oldVersion < 1) database.createObjectStore('friendRequests', { keyPath: 'userId' });
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

export async function readFriendRequests(userId: string): Promise<FriendRequestCache | null> {
  try {
    const database = db();
    return database ? ((await (await database).get('friendRequests', userId)) ?? null) : null;
  } catch {
    return null;
  }
}

export async function writeFriendRequests(
  cache: Omit<FriendRequestCache, 'savedAt'>,
): Promise<void> {
  try {
    const database = db();
    if (database) await (await database).put('friendRequests', { ...cache, savedAt: Date.now() });
  } catch {
    // A cache that cannot be written is only a slower start next time.
  }
}

export async function deleteFriendRequests(userId: string): Promise<void> {
  try {
    const database = db();
    if (database) await (await database).delete('friendRequests', userId);
  } catch {
    // Nothing cached, nothing to remove.
  }
}
