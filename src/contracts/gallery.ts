/** Photo gallery (docs/product.md "Gallery", "Gallery manager", "Image viewer"; docs/decisions.md "Only the owner edits a gallery", "One canonical shape"). */
import { encodedTextFault } from './text.ts';
import { z } from './zod.ts';

export const CAPTION_MAX = 500;
export const FOLDER_MAX = 40;

export const GalleryOwner = z.object({
  id: z.string(),
  username: z.string(),
  profileImage: z.string(),
});
export type GalleryOwner = z.infer<typeof GalleryOwner>;

/** An image as the server sends it: one name per field; the client still reads other servers' names. */
export const GalleryImage = z.object({
  id: z.string(),
  /** The display-size picture's address under /uploads (or the media store's public address). */
  url: z.string(),
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
  owner: GalleryOwner,
});
export type GalleryImage = z.infer<typeof GalleryImage>;

export const GalleryListResponse = z.object({ images: z.array(GalleryImage) });
export type GalleryListResponse = z.infer<typeof GalleryListResponse>;

export const GalleryFoldersResponse = z.object({ folders: z.array(z.string()) });
export type GalleryFoldersResponse = z.infer<typeof GalleryFoldersResponse>;

/** An upload's or an edit's answer: the whole image. */
export const GalleryImageResponse = z.object({ image: GalleryImage });
export type GalleryImageResponse = z.infer<typeof GalleryImageResponse>;

/** Whose gallery: the owner's id or username, else the member asking (docs/product.md "Gallery"). */
export const GalleryOwnerQuery = z.object({
  userId: z.string().max(100).optional(),
  username: z.string().max(100).optional(),
  folder: z.string().max(100).optional(),
});
export type GalleryOwnerQuery = z.infer<typeof GalleryOwnerQuery>;

/**
 * An image named by its id, its file name or its path (docs/product.md "Gallery"). A path may be
 * percent-encoded, so what it decodes to is checked for text no column holds too.
 */
export const GalleryRefParams = z.object({
  ref: z
    .string()
    .min(1)
    .max(300)
    .superRefine((ref, context) => {
      const fault = encodedTextFault(ref, 'ref');
      if (fault) context.addIssue({ code: 'custom', message: fault });
    }),
});
export type GalleryRefParams = z.infer<typeof GalleryRefParams>;

const reaction = z.union([z.boolean(), z.array(z.string().max(100)).max(10_000)]).optional();

/** The PATCH body: a reaction (true/false, or the arrays of member ids), a caption, or a folder. */
export const GalleryPatchBody = z.object({
  /** The member editing. */
  accountId: z.string().max(100).optional(),
  likes: reaction,
  dislikes: reaction,
  caption: z
    .string()
    .max(CAPTION_MAX * 4)
    .optional(),
  folder: z.string().max(200).optional(),
});
export type GalleryPatchBody = z.infer<typeof GalleryPatchBody>;

export const GALLERY_ORDER_INVALID = 'Send the new order as a list of image ids.';

export const GalleryReorderBody = z.object({
  /** The member reordering. */
  accountId: z.string().max(100).optional(),
  /** The gallery's owner. */
  userId: z.string().max(100).optional(),
  order: z.array(z.string().min(1).max(100), { error: GALLERY_ORDER_INVALID }).max(10_000),
});
export type GalleryReorderBody = z.infer<typeof GalleryReorderBody>;

/** An image's owner as the app holds it, under both id names other servers use. */
export interface GalleryOwnerView extends GalleryOwner {
  _id: string;
}

/**
 * An image as the app holds it after reading any server's answer tolerantly (docs/decisions.md
 * "One canonical shape"): the canonical fields plus the alternative names other servers send, kept
 * for the picture's fallback chain (docs/product.md "Errors"). Never sent by this server.
 */
export interface GalleryImageView extends Omit<GalleryImage, 'owner'> {
  _id: string;
  filename: string;
  path: string;
  src: string;
  user: GalleryOwnerView;
  owner: GalleryOwnerView;
}

/** A deleted image, as the gallery's watchers hear of it. */
export const GalleryImageDeleted = z.object({ _id: z.string(), ownerId: z.string() });
export type GalleryImageDeleted = z.infer<typeof GalleryImageDeleted>;
