/** Friend relations (docs/product.md "Friends"; docs/decisions.md "Friend calls answer the status"). */
import { PublicUser } from './user.ts';
import { fieldsOf, z } from './zod.ts';

/** The client's words for a pair's status. */
const FRIEND_STATUSES = ['self', 'none', 'pending', 'incoming', 'friends'] as const;
export type FriendStatus = (typeof FRIEND_STATUSES)[number];

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

export const FriendStatusResponse = z.object({ status: z.enum(FRIEND_STATUSES) });
export type FriendStatusResponse = z.infer<typeof FriendStatusResponse>;

export const FriendCounts = z.object(fieldsOf(['incoming', 'outgoing', 'friends'], z.number()));
export type FriendCounts = z.infer<typeof FriendCounts>;

/** A member as lists and search rows show them. */
export const MemberSummary = z.pick(PublicUser, {
  id: true,
  username: true,
  fullName: true,
  profileImage: true,
});
export type MemberSummary = z.infer<typeof MemberSummary>;

/** An entry of the incoming, outgoing or friends list (docs/product.md "Friends"). */
export const FriendListItem = z.object({
  /** The pair key: stable per pair, the request's id while it is pending. */
  requestId: z.string(),
  /** The other member of the pair. */
  user: MemberSummary,
  fromUserId: z.string(),
  toUserId: z.string(),
  createdAt: z.string(),
});
export type FriendListItem = z.infer<typeof FriendListItem>;

export const FriendListResponse = z.object({ results: z.array(FriendListItem) });
export type FriendListResponse = z.infer<typeof FriendListResponse>;

/** A search row with the viewer's friend flags filled in (docs/product.md "Friends"; docs/decisions.md "Search fills in friend flags"). */
export const SearchResult = z.extend(
  MemberSummary,
  fieldsOf(['isFriend', 'requestPending', 'incomingPending'], z.boolean()),
);
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResponse = z.object({ users: z.array(SearchResult) });
export type SearchResponse = z.infer<typeof SearchResponse>;
