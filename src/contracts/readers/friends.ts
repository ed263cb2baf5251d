/** Friend statuses, lists and search rows as the app reads them (docs/product.md "Friends"). */
import {
  type FriendListItemView,
  type FriendStatus,
  type MemberSummaryView,
  type SearchResultView,
  normaliseFriendStatus,
} from '../friends.ts';
import { type Loose, idOf, isObject, text } from './common.ts';
import { readList } from './lists.ts';

/** A member of a list or search row, with the flat fields as a fallback. */
function memberView(raw: Loose | undefined, flat: Loose): MemberSummaryView {
  const id = idOf(raw) || text(flat, '_id');
  return {
    _id: id,
    id,
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
export function friendItemView(raw: unknown): FriendListItemView {
  const item = isObject(raw) ? raw : {};
  const user = memberView(isObject(item.user) ? item.user : undefined, item);
  const requestId = text(item, 'requestId', '_id');
  return {
    _id: requestId,
    requestId,
    user,
    fromUserId: text(item, 'fromUserId'),
    toUserId: text(item, 'toUserId'),
    username: user.username,
    profileImage: user.profileImage,
    createdAt: text(item, 'createdAt'),
  };
}

/** A friend list: an array or `{results}` / `{items}` (docs/product.md "Friends"). */
export const readFriendList = (body: unknown): FriendListItemView[] =>
  readList(body).map(friendItemView);

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

/** Search results: an array or `{users}` (docs/product.md "Friends"). */
export const readSearch = (body: unknown): SearchResultView[] =>
  readList(body, 'users').map(searchRowView);
