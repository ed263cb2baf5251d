/** Test data for the gallery's unit tests. */
import type { GalleryImageView as GalleryImage } from '../contracts/gallery.ts';

export function galleryImage(id: string, extra: Partial<GalleryImage> = {}): GalleryImage {
  const owner = { _id: 'owner', id: 'owner', username: 'vega', profileImage: '' };
  const file = `/uploads/gallery/${id}.webp`;
  return {
    _id: id,
    id,
    filename: file,
    path: file,
    url: file,
    src: file,
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
    user: owner,
    owner,
    ...extra,
  };
}

export const json = (body: unknown, status = 200, statusText = '') =>
  new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
