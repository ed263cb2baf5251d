/** Images and folders as the app reads them (docs/product.md "Gallery"). */
import { DEFAULT_FOLDER } from '../constants.ts';
import type { GalleryImage, GalleryOwner } from '../gallery.ts';
import { idOf, isObject, text } from './common.ts';
import { countIn, readList } from './lists.ts';

const ids = (value: unknown): string[] =>
  Array.isArray(value) ? value.map((item) => (isObject(item) ? idOf(item) : String(item))) : [];

function readOwner(value: unknown): GalleryOwner | null {
  if (!isObject(value)) return null;
  return {
    id: idOf(value),
    username: text(value, 'username', 'name'),
    profileImage: text(value, 'profileImage', 'profilePic', 'avatarUrl', 'avatar'),
  };
}

/**
 * One image as any server spells it; null when it has neither an id nor a file. The picture's
 * address is the first of the file fields a server sends (docs/decisions.md "One name per field").
 */
export function normaliseImage(raw: unknown): GalleryImage | null {
  if (!isObject(raw)) return null;
  const file = text(raw, 'filename', 'path', 'url', 'src', 'imageUrl');
  const id = idOf(raw) || file;
  if (!id) return null;
  const owner = readOwner(raw.user) ??
    readOwner(raw.owner) ?? { id: '', username: '', profileImage: '' };
  const likes = ids(raw.likes);
  const dislikes = ids(raw.dislikes);
  return {
    id,
    url: file,
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
    owner,
  };
}

/** A list answer is an array or has `images` (docs/product.md "Gallery"). */
export function readImages(body: unknown): GalleryImage[] {
  return readList(body, 'images')
    .map(normaliseImage)
    .filter((image): image is GalleryImage => image !== null);
}

/** One page of a gallery: its images, where the next page starts (null at the end) and how many there are in all. */
export interface ImagePage {
  images: GalleryImage[];
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
export function readImage(body: unknown): GalleryImage | null {
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
function readFolderCounts(body: unknown): { total?: number; likes?: number } {
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
