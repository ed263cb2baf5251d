/** The paged lists of a gallery (docs/decisions.md "A paged gallery"). */
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import type { GalleryImage } from '../../contracts/gallery.ts';
import { type PagedList, createServerState } from '../../lib/serverState.ts';

/**
 * One folder's images as far as they are loaded (docs/decisions.md "A paged gallery"): the pages
 * read so far in the saved order, where the next page starts and how many there are in all. A list
 * set without the paging fields is complete. `missing`: the server has no such gallery for this
 * member (gone, or a block).
 */
export type ImagePages = PagedList<GalleryImage>;

/** An owner's gallery: the `All` pages, the folder list and, once chosen, each folder's own pages. */
export interface OwnerGallery extends ImagePages {
  /** 'All' first, then the owner's folders (and one just created here). */
  folders: string[];
  /** A single folder's pages, loaded when it is chosen ('All' is the gallery itself). */
  byFolder?: Record<string, ImagePages>;
  /**
   * Likes received on every image of the gallery, as the server counted them, then moved by the
   * changes seen here to loaded images; absent when the server does not count them.
   */
  likes?: number;
}

/**
 * The gallery store's requests, timers and claims (src/lib/serverState.ts), shared by its slices;
 * the store's reset() resets it.
 */
export const galleryServer = createServerState();

/** The likes on the images loaded here (each image once, whichever lists hold it). */
export function loadedLikes(gallery: OwnerGallery | undefined): number {
  if (!gallery) return 0;
  const seen = new Set<string>();
  let likes = 0;
  for (const list of [gallery, ...Object.values(gallery.byFolder ?? {})]) {
    for (const image of list.items) {
      if (seen.has(image.id)) continue;
      seen.add(image.id);
      likes += image.likeCount;
    }
  }
  return likes;
}

/** How many images a list has on the server. */
export const totalOf = (list: ImagePages | undefined): number =>
  list ? Math.max(list.total ?? 0, list.items.length) : 0;

/** Whether the server has more of the list than is loaded. */
export const hasMore = (list: ImagePages | undefined): boolean => Boolean(list?.nextCursor);

/** The pages of one folder of a gallery. */
export function pagesOf(gallery: OwnerGallery | undefined, folder: string): ImagePages | undefined {
  if (!gallery) return undefined;
  return folder === DEFAULT_FOLDER ? gallery : gallery.byFolder?.[folder];
}

/** A record kept per owner (a notice, an upload status) without `key`'s entry. */
export function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
