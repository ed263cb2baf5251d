import { DELETE_RETRY_MS } from '../../lib/constants.ts';
import type {
  GalleryImageView,
  GalleryOwnerQuery,
  GalleryPatchBody,
  GalleryReorderBody,
} from '../../contracts/gallery.ts';
import { HttpError, http, request } from '../../lib/http.ts';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import { normaliseFolders, readFolderCounts, readImage, readPage } from './images.ts';

/** Whose gallery: the server accepts the id or the username (docs/product.md "Gallery"). */
export interface GalleryOwnerRef {
  id: string;
  username: string;
}

const ownerQuery = (owner: GalleryOwnerRef) =>
  new URLSearchParams({
    userId: owner.id,
    ...(owner.username ? { username: owner.username } : {}),
  } satisfies GalleryOwnerQuery).toString();

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
export function pageUrl(owner: GalleryOwnerRef, request: PageRequest = {}): string {
  const query = new URLSearchParams(ownerQuery(owner));
  if (request.folder && request.folder !== DEFAULT_FOLDER) query.set('folder', request.folder);
  if (request.limit) query.set('limit', String(request.limit));
  if (request.cursor) query.set('cursor', request.cursor);
  return `/api/gallery?${query.toString()}`;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The references DELETE accepts, in the order docs/product.md "Gallery" tries them: id, file name, full path. */
function deleteReferences(image: GalleryImageView): string[] {
  const path = image.filename || image.path || image.url;
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
  page: async (owner: GalleryOwnerRef, request: PageRequest = {}, signal?: AbortSignal) =>
    readPage(
      await http.get(pageUrl(owner, request), {
        cache: 'no-store',
        ...(signal ? { signal } : {}),
      }),
    ),

  /** The folder names, and the gallery's counts when the server sends them. */
  folders: async (owner: GalleryOwnerRef) => {
    const body = await http.get(`/api/gallery/folders?${ownerQuery(owner)}`, {
      cache: 'no-store',
    });
    return { folders: normaliseFolders(body), ...readFolderCounts(body) };
  },

  /** A reaction toggle, a caption or a folder; answers the whole updated image. */
  patch: async (id: string, body: GalleryPatchBody) => {
    const image = readImage(await http.patch(`/api/gallery/${encodeURIComponent(id)}`, body));
    if (!image) throw new Error('Failed to save');
    return image;
  },

  /**
   * Tries the id (once more after 250 ms), then the file name, then the full path; each call has
   * the 8 s time-out. The last failure is the one reported.
   */
  async remove(image: GalleryImageView, accountId: string): Promise<void> {
    const [first, ...others] = deleteReferences(image);
    const attempts = first ? [first, first, ...others] : others;
    const query = new URLSearchParams({ accountId }).toString();
    let failure: unknown = new Error('Delete failed');
    for (const [index, reference] of attempts.entries()) {
      if (index === 1) await wait(DELETE_RETRY_MS);
      try {
        await request<void>('DELETE', `/api/gallery/${encodeURIComponent(reference)}?${query}`);
        return;
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  },

  reorder: (body: GalleryReorderBody) => http.post('/api/gallery/reorder', body),
};
