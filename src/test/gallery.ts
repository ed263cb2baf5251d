/** Test data for the gallery's unit tests. */
import { OFFLINE_HEADER } from '../contracts/constants.ts';
import type { GalleryImage } from '../contracts/gallery.ts';

export function galleryImage(id: string, extra: Partial<GalleryImage> = {}): GalleryImage {
  return {
    id,
    url: `/uploads/gallery/${id}.webp`,
    thumbnailUrl: `/uploads/gallery/${id}-thumb.webp`,
    width: 1200,
    height: 800,
    folder: 'All',
    caption: '',
    createdAt: '2025-01-01T00:00:00.000Z',
    likes: [],
    dislikes: [],
    likeCount: extra.likes?.length ?? 0,
    dislikeCount: extra.dislikes?.length ?? 0,
    owner: { id: 'owner', username: 'vega', profileImage: '' },
    ...extra,
  };
}

export const json = (body: unknown, status = 200, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });

/** The worker's answer to a write it keeps in the offline outbox (sw/outbox.ts). */
export const queuedAnswer = () =>
  new Response(JSON.stringify({ error: 'Waiting to send' }), {
    status: 202,
    headers: { 'Content-Type': 'application/json', [OFFLINE_HEADER]: '1' },
  });
