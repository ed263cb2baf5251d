import { SEARCH_LIMIT } from '../../contracts/constants.ts';
import {
  FriendCounts,
  type FriendListItemView,
  type FriendStatus,
  type MemberSummaryView,
  type SearchResultView,
  normaliseFriendStatus,
} from '../../contracts/friends.ts';
import {
  type FriendAction,
  type FriendBody,
  FRIEND_TARGET_FIELD,
} from '../../contracts/friendsInput.ts';
import { http, parsed } from '../../lib/http.ts';

export type { FriendAction };

/** Lists may be a plain array or wrapped in results or items (docs/product.md "Friends"). */
function readList<T>(body: unknown, ...keys: string[]): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    for (const key of [...keys, 'results', 'items']) {
      const value = (body as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as T[];
    }
  }
  return [];
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

function text(...values: unknown[]): string {
  for (const value of values) {
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  return '';
}

/** A member named by `_id` or `id`, with the flat fields as a fallback. */
function memberView(raw: Loose | undefined, flat: Loose): MemberSummaryView {
  const id = text(raw?.id, raw?._id) || text(flat._id);
  return {
    _id: id,
    id,
    username: text(raw?.username, flat.username),
    fullName: text(raw?.fullName),
    profileImage: text(raw?.profileImage, flat.profileImage),
  };
}

/** A list entry as any server spells it: nested `user` or flat fields, `requestId` or `_id`. */
export function friendItemView(raw: unknown): FriendListItemView {
  const item = isObject(raw) ? raw : {};
  const user = memberView(isObject(item.user) ? item.user : undefined, item);
  const requestId = text(item.requestId, item._id);
  return {
    _id: requestId,
    requestId,
    user,
    fromUserId: text(item.fromUserId),
    toUserId: text(item.toUserId),
    username: user.username,
    profileImage: user.profileImage,
    createdAt: text(item.createdAt),
  };
}

/** A search row as any server spells it, its friend flags read as given. */
export function searchRowView(raw: unknown): SearchResultView {
  const row = isObject(raw) ? raw : {};
  return {
    ...memberView(row, row),
    isFriend: row.isFriend === true,
    requestPending: row.requestPending === true,
    incomingPending: row.incomingPending === true,
  };
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
      // Each call names the other member by its own id field (docs/product.md "Friends").
      http.post(`/api/users/friends/${action}`, {
        [FRIEND_TARGET_FIELD[action]]: userId,
        ...(username ? { username } : {}),
      } satisfies FriendBody<typeof action>),
    ),
  counts: () => parsed(FriendCounts, http.get('/api/users/friends/counts')),
  incoming: async () =>
    readList<unknown>(await http.get('/api/users/friends/incoming')).map(friendItemView),
  outgoing: async () =>
    readList<unknown>(await http.get('/api/users/friends/outgoing')).map(friendItemView),
  list: async (username?: string) =>
    readList<unknown>(
      await http.get(
        `/api/users/friends/list${username ? `?username=${encodeURIComponent(username)}` : ''}`,
      ),
    ).map(friendItemView),
  search: async (q: string, signal: AbortSignal) =>
    readList<unknown>(
      await http.get(`/api/users/search?q=${encodeURIComponent(q)}&limit=${SEARCH_LIMIT}`, {
        signal,
      }),
      'users',
    ).map(searchRowView),
};
