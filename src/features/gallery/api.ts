import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import {
  galleryDelete,
  galleryFolders,
  galleryPage,
  galleryPatch,
  galleryReorder,
} from '../../contracts/endpoints/gallery.ts';
import { DELETE_RETRY_MS } from '../../lib/constants.ts';
import type {
  GalleryImage,
  GalleryOwnerQuery,
  GalleryPageQuery,
  GalleryPatchBody,
  GalleryReorderBody,
} from '../../contracts/gallery.ts';
import { api, pathOf } from '../../lib/api.ts';
import { HttpError } from '../../lib/http.ts';

/** Whose gallery: the server accepts the id or the username (docs/product.md "Gallery"). */
export interface GalleryOwnerRef {
  id: string;
  username: string;
}

const ownerQuery = (owner: GalleryOwnerRef): GalleryOwnerQuery => ({
  userId: owner.id,
  username: owner.username,
});

/** Which page of which folder; the first page of a folder is asked for with no cursor and no limit. */
export interface PageRequest {
  folder?: string;
  cursor?: string | null;
  limit?: number;
}

/**
 * The address of one page. Its parameters always come in one order (owner, folder, limit,
 * cursor), so the first page of a gallery has one address, which the service worker saves for
 * offline use (docs/decisions.md "A paged gallery").
 */
function pageQuery(owner: GalleryOwnerRef, request: PageRequest = {}): GalleryPageQuery {
  return {
    ...ownerQuery(owner),
    folder: request.folder === DEFAULT_FOLDER ? undefined : request.folder,
    limit: request.limit ? String(request.limit) : undefined,
    cursor: request.cursor ?? undefined,
  };
}

export const pageUrl = (owner: GalleryOwnerRef, request: PageRequest = {}): string =>
  pathOf(galleryPage, { query: pageQuery(owner, request) });

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The references DELETE accepts, in the order docs/product.md "Gallery" tries them: id, file name, full path. */
function deleteReferences(image: GalleryImage): string[] {
  const path = image.url;
  const name = path.split('?')[0]?.split('/').pop() ?? '';
  return [...new Set([image.id, name, path].filter(Boolean))];
}

/** '{status} {statusText} {first 120 chars}' of a failed delete, or 'Delete failed' (docs/product.md "Errors"). */
export function deleteFailureText(error: unknown): string {
  if (error instanceof HttpError && error.status > 0) {
    return [String(error.status), error.statusText, error.body.slice(0, 120)]
      .filter(Boolean)
      .join(' ');
  }
  return 'Delete failed';
}

/**
 * The text of a failed caption or reaction save: the response body (its `error` text when it is
 * JSON), else 'Failed to save' (docs/product.md "Errors").
 */
export function saveFailureText(error: unknown): string {
  if (!(error instanceof HttpError)) return 'Failed to save';
  return error.serverMessage ?? (error.body.trim() || 'Failed to save');
}

export const galleryApi = {
  /** One page of a folder, in the saved order. */
  page: (owner: GalleryOwnerRef, request: PageRequest = {}, signal?: AbortSignal) =>
    api(galleryPage, {
      query: pageQuery(owner, request),
      cache: 'no-store',
      ...(signal ? { signal } : {}),
    }),

  /** The folder names, and the gallery's counts when the server sends them. */
  folders: (owner: GalleryOwnerRef) =>
    api(galleryFolders, { query: ownerQuery(owner), cache: 'no-store' }),

  /** A reaction toggle, a caption or a folder; answers the whole updated image. */
  patch: async (id: string, body: GalleryPatchBody) => {
    const image = await api(galleryPatch, { params: { ref: id }, body });
    if (!image) throw new Error('Failed to save');
    return image;
  },

  /**
   * Tries the id (once more after 250 ms), then the file name, then the full path; each call has
   * the 8 s time-out. The last failure is the one reported.
   */
  async remove(image: GalleryImage, accountId: string): Promise<void> {
    const [first, ...others] = deleteReferences(image);
    const attempts = first ? [first, first, ...others] : others;
    let failure: unknown = new Error('Delete failed');
    for (const [index, reference] of attempts.entries()) {
      if (index === 1) await wait(DELETE_RETRY_MS);
      try {
        await api(galleryDelete, { params: { ref: reference }, query: { accountId } });
        return;
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  },

  reorder: (body: GalleryReorderBody) => api(galleryReorder, { body }),
};
