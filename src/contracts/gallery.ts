/** Photo gallery (docs/product.md "Gallery", "Gallery manager", "Image viewer"; docs/decisions.md "Only the owner edits a gallery", "One canonical shape"). */
import { NOTIFICATION_CURSOR_INVALID } from './notifications.ts';
import { encodedTextFault } from './text.ts';
import { PublicUser } from './user.ts';
import { z } from './zod.ts';

export const CAPTION_MAX = 500;
export const FOLDER_MAX = 40;

export const GalleryOwner = z.pick(PublicUser, { id: true, username: true, profileImage: true });
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
  /**
   * Ids of the members who like or dislike it, as the member asking may see them: none blocked
   * either way with that member (docs/decisions.md "Reactions under a block"). A member is in at
   * most one of the two.
   */
  likes: z.array(z.string()),
  dislikes: z.array(z.string()),
  /** How many members like or dislike it, every one counted: a number names nobody. */
  likeCount: z.number().check(z.int(), z.nonnegative()),
  dislikeCount: z.number().check(z.int(), z.nonnegative()),
  owner: GalleryOwner,
});
export type GalleryImage = z.infer<typeof GalleryImage>;

/** A member's own reaction to an image: a like, a dislike, or none (null). */
export const OwnReaction = z.nullable(z.enum(['like', 'dislike']));
export type OwnReaction = z.infer<typeof OwnReaction>;

/**
 * An image as a socket event carries it (`gallery:image:created`, `gallery:image:updated`;
 * docs/decisions.md "Reactions under a block"): the counts, never the ids of who reacted. Only the
 * sockets of the member who made the change get `myReaction`, their own reaction after it; every
 * other watcher keeps the reaction it knows.
 */
export const GalleryImageLive = z.extend(z.omit(GalleryImage, { likes: true, dislikes: true }), {
  myReaction: z.optional(OwnReaction),
});
export type GalleryImageLive = z.infer<typeof GalleryImageLive>;

/** Images per page of `GET /api/gallery` unless `limit` says otherwise, and the most one page holds. */
export const GALLERY_PAGE_DEFAULT = 60;
export const GALLERY_PAGE_MAX = 200;
export const GALLERY_LIMIT_INVALID = `Ask for between 1 and ${GALLERY_PAGE_MAX} images.`;
/** The same words as every other page cursor the server does not recognise. */
export const GALLERY_CURSOR_INVALID = NOTIFICATION_CURSOR_INVALID;

/**
 * A page of a gallery in saved order (docs/product.md "Gallery"): `nextCursor` asks for the page
 * after this one and is null on the last page; `total` counts every image of the folder asked for
 * (or of the whole gallery), so counters never need every page.
 */
export const GalleryListResponse = z.object({
  images: z.array(GalleryImage),
  nextCursor: z.nullable(z.string()),
  total: z.number(),
});
export type GalleryListResponse = z.infer<typeof GalleryListResponse>;

/**
 * The owner's folder names, with how many images each holds, and the whole gallery's counts the
 * profile's counters show (docs/decisions.md "Real profile counters"): `total` images, and `likes`
 * those images received. Counted by the server, so no client needs every page to show them.
 * Optional for servers that send only `folders`.
 */
export const GalleryFoldersResponse = z.object({
  folders: z.array(z.string()),
  counts: z.optional(z.record(z.string(), z.number())),
  total: z.optional(z.number()),
  likes: z.optional(z.number()),
});
export type GalleryFoldersResponse = z.infer<typeof GalleryFoldersResponse>;

/** An upload's or an edit's answer: the whole image. */
export const GalleryImageResponse = z.object({ image: GalleryImage });
export type GalleryImageResponse = z.infer<typeof GalleryImageResponse>;

/** Whose gallery: the owner's id or username, else the member asking (docs/product.md "Gallery"). */
export const GalleryOwnerQuery = z.object({
  userId: z.optional(z.string().check(z.maxLength(100))),
  username: z.optional(z.string().check(z.maxLength(100))),
  folder: z.optional(z.string().check(z.maxLength(100))),
});
export type GalleryOwnerQuery = z.infer<typeof GalleryOwnerQuery>;

/** A page of a gallery: whose, which folder, how many, and after which image (an earlier answer's `nextCursor`). */
export const GalleryPageQuery = z.extend(GalleryOwnerQuery, {
  /** 1 to GALLERY_PAGE_MAX (200, spelled out in the pattern), in digits; GALLERY_PAGE_DEFAULT when absent. */
  limit: z.optional(
    z.string().check(z.regex(/^(?:[1-9]\d?|1\d\d|200)$/, { error: GALLERY_LIMIT_INVALID })),
  ),
  cursor: z.optional(
    z
      .string()
      .check(
        z.maxLength(100, { error: GALLERY_CURSOR_INVALID }),
        z.regex(/^[A-Za-z0-9_-]*$/, { error: GALLERY_CURSOR_INVALID }),
      ),
  ),
});
export type GalleryPageQuery = z.infer<typeof GalleryPageQuery>;

/**
 * An image named by its id, its file name or its path (docs/product.md "Gallery"). A path may be
 * percent-encoded, so what it decodes to is checked for text no column holds too.
 */
export const GalleryRefParams = z.object({
  ref: z.string().check(
    z.minLength(1),
    z.maxLength(300),
    z.superRefine((ref, context) => {
      const fault = encodedTextFault(ref, 'ref');
      if (fault) context.addIssue({ code: 'custom', message: fault });
    }),
  ),
});
export type GalleryRefParams = z.infer<typeof GalleryRefParams>;

/** A delete names the member acting, as the product's client sends it (docs/product.md "Gallery"). */
export const GalleryDeleteQuery = z.object({
  accountId: z.optional(z.string().check(z.maxLength(100))),
});
export type GalleryDeleteQuery = z.infer<typeof GalleryDeleteQuery>;

const reaction = z.optional(
  z.union([z.boolean(), z.array(z.string().check(z.maxLength(100))).check(z.maxLength(10_000))]),
);

/** The PATCH body: a reaction (true/false, or the arrays of member ids), a caption, or a folder. */
export const GalleryPatchBody = z.object({
  /** The member editing. */
  accountId: z.optional(z.string().check(z.maxLength(100))),
  likes: reaction,
  dislikes: reaction,
  caption: z.optional(z.string().check(z.maxLength(CAPTION_MAX * 4))),
  folder: z.optional(z.string().check(z.maxLength(200))),
});
export type GalleryPatchBody = z.infer<typeof GalleryPatchBody>;

export const GALLERY_ORDER_INVALID = 'Send the new order as a list of image ids.';
export const GALLERY_MOVE_INVALID =
  'Send the image to move with the one it goes before or after, not both.';

/**
 * A reorder, in one of two forms (docs/decisions.md "Saved order and folders"):
 * - `{ order: [id, …] }`: the new order of some or all images; the places they held are handed out
 *   again in that order (the whole gallery needs every page loaded).
 * - `{ id, before }` or `{ id, after }`: one image moves to just before or just after another of the
 *   owner's images, wherever both are; everything between shifts by one place. This is the form
 *   for a grid holding only some pages: `before` the image it was dropped on (or the first
 *   loaded one), `after` the last loaded one when dropped at the end.
 * Exactly one form per call; both or neither is a 400.
 */
export const GalleryReorderBody = z.object({
  /** The member reordering. */
  accountId: z.optional(z.string().check(z.maxLength(100))),
  /** The gallery's owner. */
  userId: z.optional(z.string().check(z.maxLength(100))),
  order: z.optional(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(100)), { error: GALLERY_ORDER_INVALID })
      .check(z.maxLength(10_000)),
  ),
  /** The image to move. */
  id: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  before: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  after: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
});
export type GalleryReorderBody = z.infer<typeof GalleryReorderBody>;

/**
 * A deleted image, as the gallery's watchers hear of it: `id`, as every shape names it
 * (docs/decisions.md "One name per field"). A reader also takes `_id`, as other servers send it.
 */
export const GalleryImageDeleted = z.pipe(
  z.transform((raw: unknown) =>
    raw && typeof raw === 'object' && !('id' in raw) && '_id' in raw
      ? { ...raw, id: raw._id }
      : raw,
  ),
  z.object({ id: z.string(), ownerId: z.string() }),
);
export type GalleryImageDeleted = z.output<typeof GalleryImageDeleted>;
