import { SEARCH_LIMIT } from '../../contracts/constants.ts';
import {
  FriendCounts,
  type FriendListItem,
  type FriendStatus,
  type SearchResult,
  normaliseFriendStatus,
} from '../../contracts/friends.ts';
import type { FriendTargetBody } from '../../contracts/friendsInput.ts';
import { http, parsed } from '../../lib/http.ts';

export type FriendAction = 'request' | 'cancel' | 'accept' | 'decline' | 'unfriend';

/** Lists may be a plain array or wrapped in results or items (docs/product.md "Friends"). */
export function readList<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    for (const key of [...keys, 'results', 'items']) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as T[];
    }
  }
  return [];
}

async function statusOf(promise: Promise<unknown>): Promise<FriendStatus> {
  const body = await promise;
  return normaliseFriendStatus(
    body && typeof body === 'object' ? (body as { status?: unknown }).status : body,
  );
}

export const friendsApi = {
  status: (userId: string) =>
    statusOf(http.get(`/api/users/friends/status?userId=${encodeURIComponent(userId)}`)),
  act: (action: FriendAction, userId: string, username?: string) =>
    statusOf(
      // Every call names the other member the same way (docs/product.md "Friends").
      http.post(`/api/users/friends/${action}`, {
        toUserId: userId,
        ...(username ? { username } : {}),
      } satisfies FriendTargetBody),
    ),
  counts: () => parsed(FriendCounts, http.get('/api/users/friends/counts')),
  incoming: async () => readList<FriendListItem>(await http.get('/api/users/friends/incoming')),
  outgoing: async () => readList<FriendListItem>(await http.get('/api/users/friends/outgoing')),
  list: async (username?: string) =>
    readList<FriendListItem>(
      await http.get(
        `/api/users/friends/list${username ? `?username=${encodeURIComponent(username)}` : ''}`,
      ),
    ),
  search: async (q: string, signal: AbortSignal) =>
    readList<SearchResult>(
      await http.get(`/api/users/search?q=${encodeURIComponent(q)}&limit=${SEARCH_LIMIT}`, {
        signal,
      }),
      'users',
    ),
};
