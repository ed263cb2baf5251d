import { SEARCH_LIMIT } from '../../contracts/constants.ts';
import {
  FRIEND_ENDPOINTS,
  friendCounts,
  friendStatus,
  friendsIncoming,
  friendsList,
  friendsOutgoing,
  search,
} from '../../contracts/endpoints/friends.ts';
import {
  type FriendAction,
  type FriendBody,
  FRIEND_TARGET_FIELD,
} from '../../contracts/friendsInput.ts';
import { api } from '../../lib/api.ts';

export type { FriendAction };

/** The friend calls and member search (docs/product.md "Friends"); lists and rows come out read at the edge. */
export const friendsApi = {
  status: (userId: string) => api(friendStatus, { query: { userId } }),
  act: (action: FriendAction, userId: string, username?: string) =>
    api(FRIEND_ENDPOINTS[action], {
      // Each call names the other member by its own id field (docs/product.md "Friends").
      body: {
        [FRIEND_TARGET_FIELD[action]]: userId,
        ...(username ? { username } : {}),
      } satisfies FriendBody<typeof action>,
    }),
  counts: () => api(friendCounts),
  incoming: () => api(friendsIncoming),
  outgoing: () => api(friendsOutgoing),
  list: (username?: string) => api(friendsList, { query: { username } }),
  search: (q: string, signal: AbortSignal) =>
    api(search, { query: { q, limit: SEARCH_LIMIT }, signal }),
};
