/** Friend statuses, lists and search rows as the app reads them (docs/product.md "Friends"). */
import {
  type FriendListItem,
  type FriendStatus,
  type MemberSummary,
  type SearchResult,
  normaliseFriendStatus,
} from '../friends.ts';
import { type Loose, idOf, isObject, text } from './common.ts';
import { readList } from './lists.ts';

/** A member of a list or search row, with the flat fields as a fallback. */
function readMember(raw: Loose | undefined, flat: Loose): MemberSummary {
  return {
    id: idOf(raw) || text(flat, '_id'),
    username: text(raw, 'username') || text(flat, 'username'),
    fullName: text(raw, 'fullName'),
    profileImage: text(raw, 'profileImage') || text(flat, 'profileImage'),
  };
}

/** A friend status, bare or as `{status}`, in the client's words (docs/product.md "Friends"). */
export function readFriendStatus(body: unknown): FriendStatus {
  return normaliseFriendStatus(isObject(body) ? body.status : body);
}

/** A list entry as any server spells it: nested `user` or flat fields, `requestId` or `_id`. */
export function readFriendItem(raw: unknown): FriendListItem {
  const item = isObject(raw) ? raw : {};
  return {
    requestId: text(item, 'requestId', '_id'),
    user: readMember(isObject(item.user) ? item.user : undefined, item),
    fromUserId: text(item, 'fromUserId'),
    toUserId: text(item, 'toUserId'),
    createdAt: text(item, 'createdAt'),
  };
}

/** A friend list: an array or `{results}` / `{items}` (docs/product.md "Friends"). */
export const readFriendList = (body: unknown): FriendListItem[] =>
  readList(body).map(readFriendItem);

/** A search row as any server spells it, its friend flags read as given. */
export function readSearchRow(raw: unknown): SearchResult {
  const row = isObject(raw) ? raw : {};
  return {
    ...readMember(row, row),
    isFriend: row.isFriend === true,
    requestPending: row.requestPending === true,
    incomingPending: row.incomingPending === true,
  };
}

/** Search results: an array or `{users}` (docs/product.md "Friends"). */
export const readSearch = (body: unknown): SearchResult[] =>
  readList(body, 'users').map(readSearchRow);
