import type { FriendStatus, SearchResult } from '../../contracts/friends.ts';

/** A search row's status from its flags (the server fills them in; docs/decisions.md "Search fills in friend flags"). */
export function rowStatus(row: SearchResult, meId: string | undefined): FriendStatus {
  if (row.id === meId) return 'self';
  if (row.isFriend) return 'friends';
  if (row.requestPending) return 'pending';
  if (row.incomingPending) return 'incoming';
  return 'none';
}
