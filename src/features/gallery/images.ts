/**
 * Pure rules of the gallery (docs/product.md "Gallery", "Image viewer", "Uploads"): reactions, the
 * viewer's index after a delete, and reordering. Images and folders are read at the edge
 * (src/contracts/readers.ts).
 */
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryImage, OwnReaction } from '../../contracts/gallery.ts';

export type Reaction = 'likes' | 'dislikes';
export const REACTIONS: readonly Reaction[] = ['likes', 'dislikes'];

/** Each reaction's count (docs/decisions.md "Reactions under a block"). */
const COUNT = { likes: 'likeCount', dislikes: 'dislikeCount' } as const;

/** How many members gave the reaction, as the server counted them: everyone, named or not. */
export const reactionCount = (image: GalleryImage, kind: Reaction): number => image[COUNT[kind]];

/**
 * One image moved within a list, as the server's move takes it (docs/decisions.md "A paged
 * gallery"): just before the image it now precedes, or just after the one it now follows when it
 * went further on. Null when the new order is not one image moved.
 */
export function singleMove(
  before: readonly string[],
  after: readonly string[],
): { id: string; before: string } | { id: string; after: string } | null {
  if (before.length !== after.length) return null;
  let first = 0;
  while (first < before.length && before[first] === after[first]) first++;
  let last = before.length - 1;
  while (last > first && before[last] === after[last]) last--;
  if (first >= last) return null;
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((id, index) => id === b[index]);
  const earlier = before[last] as string;
  if (after[first] === earlier && same(after.slice(first + 1, last + 1), before.slice(first, last)))
    return { id: earlier, before: after[first + 1] as string };
  const later = before[first] as string;
  if (after[last] === later && same(after.slice(first, last), before.slice(first + 1, last + 1)))
    return { id: later, after: after[last - 1] as string };
  return null;
}

/** The images one folder shows; 'All' shows every image. */
export function inFolder(images: readonly GalleryImage[], folder: string): GalleryImage[] {
  return folder === DEFAULT_FOLDER
    ? [...images]
    : images.filter((image) => image.folder === folder);
}

export const ownerIdOf = (image: GalleryImage): string => image.owner.id;

/**
 * A member's reaction toggled: on when it was off, and never both like and dislike, the counts
 * moving with it (docs/product.md "Image viewer").
 */
export function toggleReaction(
  image: GalleryImage,
  kind: Reaction,
  memberId: string,
): GalleryImage {
  const other: Reaction = kind === 'likes' ? 'dislikes' : 'likes';
  const on = !image[kind].includes(memberId);
  const leaves = image[other].includes(memberId);
  return {
    ...image,
    [kind]: on ? [...image[kind], memberId] : image[kind].filter((id) => id !== memberId),
    [other]: image[other].filter((id) => id !== memberId),
    [COUNT[kind]]: Math.max(0, reactionCount(image, kind) + (on ? 1 : -1)),
    [COUNT[other]]: Math.max(0, reactionCount(image, other) - (leaves ? 1 : 0)),
  };
}

/**
 * An image as a live update leaves it (docs/decisions.md "Reactions under a block"): the fields
 * and counts the update carries, which name nobody, and the ids this member read before. The
 * member's own reaction is what the update says when it tells it (`mine`: the change was theirs),
 * else what was held.
 */
export function withLiveUpdate(
  held: GalleryImage | undefined,
  update: GalleryImage,
  mine: OwnReaction | undefined,
  memberId: string,
): GalleryImage {
  const kept = { likes: held?.likes ?? [], dislikes: held?.dislikes ?? [] };
  if (mine === undefined || !memberId) return { ...update, ...kept };
  const others = (list: string[]) => list.filter((id) => id !== memberId);
  return {
    ...update,
    likes: mine === 'like' ? [...others(kept.likes), memberId] : others(kept.likes),
    dislikes: mine === 'dislike' ? [...others(kept.dislikes), memberId] : others(kept.dislikes),
  };
}

/**
 * Where the viewer goes after the image at `index` of a list of `length` is deleted: the next image
 * (which moves into its place), the previous one if it was the last, nothing if it was the only one.
 */
export function indexAfterDelete(length: number, index: number): number | null {
  const remaining = length - 1;
  if (remaining <= 0) return null;
  return Math.min(index, remaining - 1);
}

/** Puts a removed image back where it was, or at the end if the list has shrunk since. */
export function restoreAt(
  images: readonly GalleryImage[],
  image: GalleryImage,
  index: number,
): GalleryImage[] {
  if (images.some((item) => item.id === image.id)) return [...images];
  const list = [...images];
  list.splice(Math.min(Math.max(index, 0), list.length), 0, image);
  return list;
}

/** Adds an image at the front (newest first) or replaces the one with its id in place. */
export function upsertImage(images: readonly GalleryImage[], image: GalleryImage): GalleryImage[] {
  const at = images.findIndex((item) => item.id === image.id);
  if (at === -1) return [image, ...images];
  const list = [...images];
  list[at] = image;
  return list;
}

export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const result = [...list];
  if (from < 0 || from >= result.length) return result;
  const [item] = result.splice(from, 1) as [T];
  result.splice(Math.min(Math.max(to, 0), result.length), 0, item);
  return result;
}

/**
 * The whole gallery's order after a part of it (one folder, or the first rows) was rearranged: the
 * slots that part held keep holding it, in its new order; every other image stays where it was.
 */
export function reorderWithin(
  allIds: readonly string[],
  partInNewOrder: readonly string[],
): string[] {
  const part = new Set(partInNewOrder);
  const queue = partInNewOrder.filter((id) => allIds.includes(id));
  let next = 0;
  return allIds.map((id) => (part.has(id) ? (queue[next++] ?? id) : id));
}

/** Puts a list of images in the order of `order` (ids); images the order does not name keep their place at the end. */
export function sortByOrder(
  images: readonly GalleryImage[],
  order: readonly string[],
): GalleryImage[] {
  const rank = new Map(order.map((id, index) => [id, index]));
  const last = order.length;
  return [...images].sort((a, b) => (rank.get(a.id) ?? last) - (rank.get(b.id) ?? last));
}
