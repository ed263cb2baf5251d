/**
 * What the app reads from any server, once per entity (docs/architecture.md "Reading what comes
 * in"; docs/decisions.md "One canonical shape"): wrapped members, `_id` or `id`, the product's
 * avatar keys, arrays or `{results}`. The endpoint table (`endpoints.ts`) names the reader of each
 * answer, and the app's one call function applies it, so no feature reads a raw answer.
 */
import { DEFAULT_FOLDER } from './constants.ts';
import {
  type FriendListItemView,
  type FriendStatus,
  type MemberSummaryView,
  type SearchResultView,
  normaliseFriendStatus,
} from './friends.ts';
import type { GalleryImageView, GalleryOwnerView } from './gallery.ts';
import { DEFAULT_THEME, isTheme } from './theme.ts';
import type { User } from './user.ts';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

/** The first of `keys` that holds a non-empty string or a number, as a string; '' when none does. */
function text(source: Loose | undefined, ...keys: string[]): string {
  if (!source) return '';
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  return '';
}

/** An id as any server names it. */
const idOf = (source: Loose | undefined): string => text(source, 'id', '_id');

/** A count as sent: a finite number, not below zero; else undefined. */
const countIn = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The keys a profile picture may come under (docs/product.md "Session and API calls"). */
const IMAGE_KEYS = [
  'profileImageUrl',
  'profilePic',
  'profileImage',
  'profileImg',
  'avatarUrl',
  'avatar',
  'photoUrl',
  'picture',
] as const;

export function imageOf(source: Loose): string {
  return text(source, ...IMAGE_KEYS);
}

/** A list: a plain array, or wrapped under one of `keys`, `results` or `items`. */
export function readList(body: unknown, ...keys: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  if (isObject(body)) {
    for (const key of [...keys, 'results', 'items']) {
      const value = body[key];
      if (Array.isArray(value)) return value;
    }
  }
  return [];
}

// Members

/**
 * The member as the app holds them: the contract's user (src/contracts/user.ts) without its
 * creation time, filled from whatever fields a server sent. `profileImage` is as the server sent
 * it; resolve it with `avatarUrl` before showing it.
 */
export type CurrentUser = Omit<User, 'createdAt'>;

/** A login, signup or profile response may wrap the user under user, profile, data.user or data.profile. */
export function unwrapUser(body: unknown): Loose | null {
  if (!isObject(body)) return null;
  const data = isObject(body.data) ? body.data : undefined;
  for (const candidate of [body.user, body.profile, data?.user, data?.profile, data, body]) {
    if (isObject(candidate) && (candidate._id !== undefined || candidate.id !== undefined))
      return candidate;
  }
  return null;
}

/** Any date-like value as YYYY-MM-DD; '' when it cannot be read. */
export function normaliseBirthday(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const raw = String(value).trim();
  const direct = /^(\d{4}-\d{2}-\d{2})/.exec(raw);
  if (direct?.[1]) return direct[1];
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/** The member of an answer, wrapped or not, under any of the names other servers use; null when none. */
export function normaliseUser(body: unknown): CurrentUser | null {
  const raw = unwrapUser(body);
  if (!raw) return null;
  const id = idOf(raw);
  if (!id) return null;
  const firstName = text(raw, 'firstName');
  const lastName = text(raw, 'lastName');
  const interests = Array.isArray(raw.interests)
    ? raw.interests.filter((item): item is string => typeof item === 'string')
    : typeof raw.interests === 'string'
      ? raw.interests
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : [];
  return {
    id,
    username: text(raw, 'username', 'userName', 'name', 'handle'),
    fullName:
      text(raw, 'fullName', 'displayName') || [firstName, lastName].filter(Boolean).join(' '),
    firstName,
    lastName,
    email: text(raw, 'email'),
    birthday: normaliseBirthday(raw.birthday),
    profileImage: imageOf(raw),
    interests,
    referral: text(raw, 'referral'),
    referralCode: text(raw, 'referralCode'),
    theme: isTheme(raw.theme) ? raw.theme : DEFAULT_THEME,
    favoriteQuote: text(raw, 'favoriteQuote'),
    securityQuestion: text(raw, 'securityQuestion'),
    isModerator: raw.isModerator === true,
  };
}

/** A login's or signup's answer: the member, wrapped or not, and the session token when one came. */
export function readAuth(body: unknown): { user: CurrentUser | null; token: string | null } {
  const token = isObject(body) && typeof body.token === 'string' && body.token ? body.token : null;
  return { user: normaliseUser(body), token };
}

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

// Friends and search

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

/** Search results: an array or `{users}` (docs/product.md "Search"). */
export const readSearch = (body: unknown): SearchResultView[] =>
  readList(body, 'users').map(searchRowView);

// Galleries

const ids = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((item) => (isObject(item) ? idOf(item) : String(item))) : [];

function readOwner(value: unknown): GalleryOwnerView | null {
  if (!isObject(value)) return null;
  const id = idOf(value);
  return {
    _id: id,
    id,
    username: text(value, 'username', 'name'),
    profileImage: text(value, 'profileImage', 'profilePic', 'avatarUrl', 'avatar'),
  };
}

/** One image as any server spells it; null when it has neither an id nor a file. */
export function normaliseImage(raw: unknown): GalleryImageView | null {
  if (!isObject(raw)) return null;
  const file = text(raw, 'filename', 'path', 'url', 'src', 'imageUrl');
  const id = idOf(raw) || file;
  if (!id) return null;
  const owner = readOwner(raw.user) ??
    readOwner(raw.owner) ?? { _id: '', id: '', username: '', profileImage: '' };
  const likes = ids(raw.likes);
  const dislikes = ids(raw.dislikes);
  const image: GalleryImageView = {
    _id: id,
    id,
    filename: file,
    path: text(raw, 'path') || file,
    url: text(raw, 'url') || file,
    src: text(raw, 'src') || file,
    thumbnailUrl: text(raw, 'thumbnailUrl', 'thumbnail', 'thumbUrl'),
    width: typeof raw.width === 'number' ? raw.width : 0,
    height: typeof raw.height === 'number' ? raw.height : 0,
    folder: text(raw, 'folder') || DEFAULT_FOLDER,
    caption: typeof raw.caption === 'string' ? raw.caption : '',
    createdAt: text(raw, 'createdAt'),
    likes,
    dislikes,
    // A server that sends only the ids: the count is how many it named.
    likeCount: Math.max(countIn(raw.likeCount) ?? 0, likes.length),
    dislikeCount: Math.max(countIn(raw.dislikeCount) ?? 0, dislikes.length),
    user: owner,
    owner,
  };
  // Not in our contract, but the last alternative URL of docs/product.md "Errors": kept for the fallback chain.
  const imageUrl = text(raw, 'imageUrl');
  if (imageUrl) Object.assign(image, { imageUrl });
  return image;
}

/** A list answer is an array or has `images` (docs/product.md "Gallery"). */
export function readImages(body: unknown): GalleryImageView[] {
  return readList(body, 'images')
    .map(normaliseImage)
    .filter((image): image is GalleryImageView => image !== null);
}

/** One page of a gallery: its images, where the next page starts (null at the end) and how many there are in all. */
export interface ImagePage {
  images: GalleryImageView[];
  nextCursor: string | null;
  total: number;
}

/**
 * A page of `GET /api/gallery` (docs/product.md "Gallery"): `{images, nextCursor, total}`. An
 * array, or `{images}` without a cursor, is a server that sends everything at once: the last page.
 */
export function readPage(body: unknown): ImagePage {
  const images = readImages(body);
  const loose = isObject(body) && !Array.isArray(body) ? body : {};
  const nextCursor =
    typeof loose.nextCursor === 'string' && loose.nextCursor ? loose.nextCursor : null;
  const total =
    typeof loose.total === 'number' && Number.isFinite(loose.total)
      ? Math.max(loose.total, images.length)
      : images.length;
  return { images, nextCursor, total };
}

/** A single image answer: `{image}` or the image itself. */
export function readImage(body: unknown): GalleryImageView | null {
  return normaliseImage(isObject(body) && isObject(body.image) ? body.image : body);
}

/** The folder list: an array or `{folders}`; 'All' and 'root' dropped, then 'All' first (docs/product.md "Gallery"). */
export function normaliseFolders(body: unknown): string[] {
  const names = new Set<string>();
  for (const item of readList(body, 'folders')) {
    const name = typeof item === 'string' ? item.trim() : '';
    if (!name || name === DEFAULT_FOLDER || name.toLowerCase() === 'root') continue;
    names.add(name);
  }
  return [DEFAULT_FOLDER, ...names];
}

/** The counts the folder list answer may carry: images and likes received in the whole gallery. */
export function readFolderCounts(body: unknown): { total?: number; likes?: number } {
  if (!isObject(body) || Array.isArray(body)) return {};
  const total = countIn(body.total);
  const likes = countIn(body.likes);
  return {
    ...(total === undefined ? {} : { total }),
    ...(likes === undefined ? {} : { likes }),
  };
}

/** The folder list answer: the names, and the gallery's counts when the server sends them. */
export const readFolders = (body: unknown) => ({
  folders: normaliseFolders(body),
  ...readFolderCounts(body),
});
