/** Friend relations (docs/product.md "Friends"; docs/decisions.md "Friend calls answer the status"). */

/** The client's words for a pair's status. */
export const FRIEND_STATUSES = ['self', 'none', 'pending', 'incoming', 'friends'] as const;
export type FriendStatus = (typeof FRIEND_STATUSES)[number];

/** The profile page's words for the same (docs/product.md "Friends"). */
export type ProfileFriendStatus = Uppercase<FriendStatus>;

/** Server words normalised as docs/product.md "Friends" says; anything unknown is none. */
export function normaliseFriendStatus(word: unknown): FriendStatus {
  const value = typeof word === 'string' ? word.trim().toLowerCase() : '';
  switch (value) {
    case 'self':
    case 'none':
    case 'pending':
    case 'incoming':
    case 'friends':
      return value;
    case 'friend':
      return 'friends';
    case 'received':
      return 'incoming';
    case 'sent':
    case 'requested':
      return 'pending';
    default:
      return 'none';
  }
}

/** Ranks for the optimistic guard (docs/product.md "Friends"): a realtime update may not lower a fresh local status. */
export const FRIEND_STATUS_RANK: Record<FriendStatus, number> = {
  none: 0,
  incoming: 1,
  pending: 1,
  friends: 2,
  self: 3,
};

/** Both ids sorted and joined with a colon: one key per pair, whoever asks. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

export interface FriendStatusResponse {
  status: FriendStatus;
}

export interface FriendCounts {
  incoming: number;
  outgoing: number;
  friends: number;
}

/** A member as lists and search rows show them. */
export interface MemberSummary {
  _id: string;
  id: string;
  username: string;
  fullName: string;
  profileImage: string;
}

/** An entry of the incoming, outgoing or friends list (docs/product.md "Friends"). */
export interface FriendListItem {
  /** The pair key: stable per pair, the request's id while it is pending. */
  _id: string;
  requestId: string;
  user: MemberSummary;
  fromUserId: string;
  toUserId: string;
  username: string;
  profileImage: string;
  createdAt: string;
}

export interface FriendListResponse {
  results: FriendListItem[];
}

/** A search row with the viewer's friend flags filled in (docs/product.md "Friends"; docs/decisions.md "Search fills in friend flags"). */
export interface SearchResult extends MemberSummary {
  isFriend: boolean;
  requestPending: boolean;
  incomingPending: boolean;
}

export interface SearchResponse {
  users: SearchResult[];
}
