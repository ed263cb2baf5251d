/** Photo gallery (docs/product.md "Gallery", "Gallery manager", "Image viewer"; docs/decisions.md "Only the owner edits a gallery"). */

import { z } from 'zod/mini';

export const GalleryOwnerSchema = z.object({
  _id: z.string(),
  id: z.string(),
  username: z.string(),
  profileImage: z.string(),
});
export type GalleryOwner = z.infer<typeof GalleryOwnerSchema>;

/** An image as the server sends it; the client still reads the alternative field names other servers send. */
export const GalleryImageSchema = z.object({
  _id: z.string(),
  id: z.string(),
  /** The display-size file's path under /uploads (also given as path, url and src). */
  filename: z.string(),
  path: z.string(),
  url: z.string(),
  src: z.string(),
  /** The small WebP the grids show. */
  thumbnailUrl: z.string(),
  width: z.number(),
  height: z.number(),
  folder: z.string(),
  caption: z.string(),
  createdAt: z.string(),
  /** Member ids who like or dislike it; a member is in at most one of the two. */
  likes: z.array(z.string()),
  dislikes: z.array(z.string()),
  user: GalleryOwnerSchema,
  owner: GalleryOwnerSchema,
});
export type GalleryImage = z.infer<typeof GalleryImageSchema>;

export interface GalleryListResponse {
  images: GalleryImage[];
}

export interface GalleryFoldersResponse {
  folders: string[];
}

export const CAPTION_MAX = 500;
export const FOLDER_MAX = 40;

/** The PATCH body: a reaction (true/false, or the spec's arrays of ids), a caption, or a folder. */
export interface GalleryPatchBody {
  accountId?: string;
  likes?: boolean | string[];
  dislikes?: boolean | string[];
  caption?: string;
  folder?: string;
}

export interface GalleryReorderBody {
  accountId?: string;
  userId?: string;
  order: string[];
}

export const GalleryImageDeletedSchema = z.object({ _id: z.string(), ownerId: z.string() });
export type GalleryImageDeleted = z.infer<typeof GalleryImageDeletedSchema>;
