/**
 * The notifications store's per-member copy of its friend-request notifications, in the app's
 * IndexedDB database (src/lib/idb.ts), read with the notification contract.
 */
import { FriendRequestCache } from '../../contracts/notifications.ts';
import { z } from '../../contracts/zod.ts';
import { using } from '../../lib/idb.ts';

export async function readFriendRequests(userId: string): Promise<FriendRequestCache | null> {
  return using(null, async (database) => {
    const parsed = z.safeParse(FriendRequestCache, await database.get('friendRequests', userId));
    return parsed.success ? parsed.data : null;
  });
}

export async function writeFriendRequests(
  cache: Omit<FriendRequestCache, 'savedAt'>,
): Promise<void> {
  // A cache that cannot be written is only a slower start next time.
  await using(undefined, async (database) => {
    await database.put('friendRequests', { ...cache, savedAt: Date.now() });
  });
}

export async function deleteFriendRequests(userId: string): Promise<void> {
  await using(undefined, (database) => database.delete('friendRequests', userId));
}
