import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DEFAULT_FOLDER } from '../../../../src/contracts/constants.ts';
import {
  CAPTION_MAX,
  FOLDER_MAX,
  GALLERY_CURSOR_INVALID,
  GALLERY_MOVE_INVALID,
  GALLERY_ORDER_INVALID,
  GALLERY_PAGE_DEFAULT,
  GALLERY_PAGE_MAX,
  type GalleryListResponse,
  type GalleryImage,
  type GalleryImageDeleted,
  type GalleryImageLive,
  type GalleryOwner,
  type GalleryOwnerQuery,
  type OwnReaction,
} from '../../../../src/contracts/gallery.ts';
import { displayText } from '../../../../src/contracts/validation.ts';
import type { Db } from '../../db/index.ts';
import type { GalleryImageRow, UserRow } from '../../db/schema.ts';
import { Invalid, NotFound } from '../../errors.ts';
import { type ImageQueue, galleryFiles } from '../../lib/images.ts';
import { storing } from '../../lib/storageErrors.ts';
import { keepFiles, putFiles } from '../../media/files.ts';
import { type Media, type MediaUrl, galleryKey } from '../../media/index.ts';
import { visibleMemberById, visibleMemberByUsername } from '../../members/blocks.ts';
import { KEY_LIFETIME_MS } from '../../members/idempotencyKeys.ts';
import { profileImageUrl } from '../../members/mapping.ts';
import { type NotificationEvents, drafts, recordLikeOnce } from '../notifications/service.ts';
import * as repo from './repository.ts';

/** The member who changed an image, and their own reaction to it after the change. */
interface GalleryActor {
  id: string;
  reaction: OwnReaction;
}

/**
 * What a gallery's watchers hear (docs/decisions.md "Reactions under a block"): images without
 * the ids of who reacted; the member who changed one hears their own reaction on their own sockets.
 */
export interface GalleryEvents {
  created: (image: GalleryImageLive) => void;
  updated: (image: GalleryImageLive, actor: GalleryActor) => void;
  deleted: (payload: GalleryImageDeleted) => void;
}

export interface GalleryDeps {
  db: Db;
  media: Media;
  /** This node's folder for request bodies being received (multipart), swept separately. */
  incomingDir: string;
  /** The queue every picture is made in. */
  images: ImageQueue;
  events: GalleryEvents;
  notifications: NotificationEvents;
  now?: () => Date;
}

const GALLERY_MESSAGES = {
  noImage: 'Choose an image to upload.',
  notFound: 'No such image in your gallery.',
  unknownOwner: 'No member matches that gallery.',
  captionTooLong: `Captions can be at most ${CAPTION_MAX} characters.`,
  folderTooLong: `Folder names can be at most ${FOLDER_MAX} characters.`,
  orderInvalid: GALLERY_ORDER_INVALID,
  moveInvalid: GALLERY_MOVE_INVALID,
  cursorInvalid: GALLERY_CURSOR_INVALID,
  nothingToChange: 'Send likes, dislikes, caption or folder.',
} as const;

/**
 * Whose gallery: userId, else username, else the member asking. A member blocked either way
 * with the one asking has no gallery to them (docs/product.md "Blocking"): the same lookup says so.
 */
export async function ownerFor(
  deps: { db: Db },
  query: GalleryOwnerQuery,
  me: UserRow,
): Promise<UserRow> {
  const owner = query.userId
    ? await visibleMemberById(deps.db, me.id, query.userId)
    : query.username
      ? await visibleMemberByUsername(deps.db, me.id, query.username)
      : me;
  if (!owner) throw new NotFound(GALLERY_MESSAGES.unknownOwner);
  return owner;
}

const stamp = (deps: GalleryDeps) => (deps.now ? deps.now() : new Date()).toISOString();

/** A folder name as stored: trimmed, `All` (or nothing) for the default. */
function normaliseFolder(folder: string | undefined): string {
  const value = displayText(folder ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  if (
    !value ||
    value.toLowerCase() === DEFAULT_FOLDER.toLowerCase() ||
    value.toLowerCase() === 'root'
  )
    return DEFAULT_FOLDER;
  if (value.length > FOLDER_MAX) throw new Invalid(GALLERY_MESSAGES.folderTooLong);
  return value;
}

function ownerOf(
  row: Pick<UserRow, 'id' | 'username' | 'profile_image'>,
  mediaUrl: MediaUrl,
): GalleryOwner {
  return {
    id: row.id,
    username: row.username,
    profileImage: profileImageUrl(row, mediaUrl),
  };
}

/**
 * An image as one member reads it: the ids of who reacted that this member may see, and the
 * counts of every reaction (docs/decisions.md "Reactions under a block").
 */
function toImage(
  row: GalleryImageRow,
  owner: GalleryOwner,
  reactions: readonly repo.SeenReaction[],
  mediaUrl: MediaUrl,
): GalleryImage {
  const own = reactions.filter((r) => r.image_id === row.id);
  const named = (kind: 'like' | 'dislike') =>
    own.flatMap((r) => (r.kind === kind && r.user_id !== null ? [r.user_id] : []));
  return {
    id: row.id,
    url: mediaUrl(galleryKey(row.display_file)),
    thumbnailUrl: mediaUrl(galleryKey(row.thumb_file)),
    width: row.width,
    height: row.height,
    folder: row.folder,
    caption: displayText(row.caption),
    createdAt: row.created_at,
    likes: named('like'),
    dislikes: named('dislike'),
    likeCount: own.filter((r) => r.kind === 'like').length,
    dislikeCount: own.filter((r) => r.kind === 'dislike').length,
    owner,
  };
}

/** An image as a socket event carries it: everything but the ids of who reacted. */
function liveImage(image: GalleryImage): GalleryImageLive {
  const { likes: _likes, dislikes: _dislikes, ...live } = image;
  return live;
}

/** The member's own reaction in an image they read. */
function reactionOf(image: GalleryImage, memberId: string): OwnReaction {
  if (image.likes.includes(memberId)) return 'like';
  return image.dislikes.includes(memberId) ? 'dislike' : null;
}

/**
 * A page cursor: the last image's position, base64url-encoded so that clients keep it whole and
 * never read a meaning into it.
 */
export function encodeCursor(position: number): string {
  return Buffer.from(`p${position}`).toString('base64url');
}

/** The position a cursor carries; a 400 for anything this server did not write. */
function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^p(-?\d{1,10})$/.exec(text);
  const position = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(position) || encodeCursor(position) !== cursor)
    throw new Invalid(GALLERY_MESSAGES.cursorInvalid);
  return position;
}

export interface GalleryPage {
  folder?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * A page of a member's gallery in saved order, each image with its reactions as `viewerId` reads
 * them, and how many images the folder (or the gallery) holds. Every query is bounded by the page:
 * the reactions are read for at most GALLERY_PAGE_MAX ids.
 */
export async function listGallery(
  deps: GalleryDeps,
  ownerRow: UserRow,
  viewerId: string,
  page: GalleryPage = {},
): Promise<GalleryListResponse> {
  const folder = page.folder ? normaliseFolder(page.folder) : undefined;
  const after = page.cursor ? decodeCursor(page.cursor) : undefined;
  const limit = Math.min(Math.max(page.limit ?? GALLERY_PAGE_DEFAULT, 1), GALLERY_PAGE_MAX);
  const [found, total] = await Promise.all([
    repo.listImages(deps.db, ownerRow.id, { folder, after, limit: limit + 1 }),
    repo.countImages(deps.db, ownerRow.id, folder),
  ]);
  const rows = found.slice(0, limit);
  const last = rows.at(-1);
  const nextCursor = found.length > limit && last ? encodeCursor(last.position) : null;
  const reactions = await repo.reactionsFor(
    deps.db,
    rows.map((row) => row.id),
    viewerId,
  );
  const byImage = new Map<string, repo.SeenReaction[]>();
  for (const reaction of reactions) {
    const list = byImage.get(reaction.image_id) ?? [];
    list.push(reaction);
    byImage.set(reaction.image_id, list);
  }
  const owner = ownerOf(ownerRow, deps.media.url);
  return {
    images: rows.map((row) => toImage(row, owner, byImage.get(row.id) ?? [], deps.media.url)),
    nextCursor,
    total,
  };
}

/**
 * The owner's folder names and how many images each holds, with the gallery's total and the likes
 * it received (the profile's counters), without reading the images.
 */
export async function folders(
  deps: GalleryDeps,
  ownerRow: UserRow,
): Promise<{ folders: string[]; counts: Record<string, number>; total: number; likes: number }> {
  const [rows, likes] = await Promise.all([
    repo.listFolders(deps.db, ownerRow.id),
    repo.countLikesReceived(deps.db, ownerRow.id),
  ]);
  return {
    folders: rows.map((row) => row.folder),
    counts: Object.fromEntries(rows.map((row) => [row.folder, row.count])),
    total: rows.reduce((sum, row) => sum + row.count, 0),
    likes,
  };
}

/**
 * Stores an upload into the member's own gallery. The row is written only once both pictures are
 * stored, and the pictures are removed again if the row cannot be written.
 *
 * With the request's Idempotency-Key (docs/decisions.md "Idempotency keys") the key is stored on
 * the row, in the transaction that inserts it. A run of the key that finds the photo an earlier
 * run made (one that committed, then died before its answer was stored) answers that photo as it
 * is now and makes nothing: checked before any picture work, and again under the owner's lock,
 * where pictures this run stored meanwhile are removed.
 */
export async function upload(
  deps: GalleryDeps,
  me: UserRow,
  tempFile: string | undefined,
  folder: string | undefined,
  idempotencyKey?: string,
): Promise<GalleryImage> {
  if (!tempFile) throw new Invalid(GALLERY_MESSAGES.noImage);
  const target = normaliseFolder(folder);
  const now = deps.now ? deps.now() : new Date();
  const uploadKey =
    idempotencyKey === undefined
      ? undefined
      : {
          key: idempotencyKey,
          since: new Date(now.getTime() - KEY_LIFETIME_MS).toISOString(),
        };
  const before = uploadKey && (await repo.imageByUploadKey(deps.db, me.id, uploadKey));
  if (before) return madeBefore(deps, me, before);
  const files = await galleryFiles(deps.images, tempFile);
  const objects = [files.display, files.thumb];
  const began = await storing('could not store a gallery picture', () =>
    putFiles(deps.media, objects),
  );
  const id = randomUUID();
  let made: GalleryImageRow | undefined;
  try {
    made = await repo.insertImage(deps.db, {
      id,
      ownerId: me.id,
      folder: target,
      createdAt: now.toISOString(),
      displayFile: files.displayFile,
      thumbFile: files.thumbFile,
      width: files.width,
      height: files.height,
      bytes: files.bytes,
      uploadKey,
    });
  } catch (error) {
    await deps.media.discard(objects.map((file) => file.key));
    throw error;
  }
  if (made) {
    await deps.media.discard(objects.map((file) => file.key));
    return madeBefore(deps, me, made);
  }
  await storing('could not store a gallery picture again', () =>
    keepFiles(deps.media, objects, began),
  );
  const row = await repo.findImage(deps.db, id);
  if (!row) throw new Error('upload: the new image could not be read back');
  const image = toImage(row, ownerOf(me, deps.media.url), [], deps.media.url);
  deps.events.created(liveImage(image));
  return image;
}

/**
 * The photo an earlier run of the upload's key made, as its owner reads it now. Its watchers heard
 * of it when it was made, so nothing is announced.
 */
async function madeBefore(
  deps: GalleryDeps,
  me: UserRow,
  row: GalleryImageRow,
): Promise<GalleryImage> {
  const reactions = await repo.reactionsFor(deps.db, [row.id], me.id);
  return toImage(row, ownerOf(me, deps.media.url), reactions, deps.media.url);
}

/** The image behind an id, a file name or a path under /uploads. */
async function findByRef(deps: GalleryDeps, ref: string): Promise<GalleryImageRow | undefined> {
  let name = '';
  try {
    name = path.posix.basename(decodeURIComponent(ref.split('?')[0] ?? ''));
  } catch {
    return undefined;
  }
  return (
    (await repo.findImageByRef(deps.db, ref)) ??
    (name ? await repo.findImageByRef(deps.db, name) : undefined)
  );
}

/** The image behind a reference, if it is the member's own; anyone else's is not found. */
async function ownImage(deps: GalleryDeps, me: UserRow, ref: string): Promise<GalleryImageRow> {
  const row = await findByRef(deps, ref);
  if (!row || row.owner_id !== me.id) throw new NotFound(GALLERY_MESSAGES.notFound);
  return row;
}

export interface ImagePatch {
  likes?: boolean | string[] | undefined;
  dislikes?: boolean | string[] | undefined;
  caption?: string | undefined;
  folder?: string | undefined;
}

/** The reaction a PATCH asks for: a boolean, or the spec's id arrays read for this member alone. */
function wanted(value: boolean | string[] | undefined, meId: string): boolean | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.includes(meId) : value;
}

/** What a reaction PATCH does: a like wins over a dislike; `false` takes back that kind only. */
type ReactionChange = { give: 'like' | 'dislike' } | { takeBack: ('like' | 'dislike')[] };

function reactionChange(like: boolean | undefined, dislike: boolean | undefined): ReactionChange {
  if (like === true) return { give: 'like' };
  if (dislike === true) return { give: 'dislike' };
  const kinds: ('like' | 'dislike')[] = [];
  if (like === false) kinds.push('like');
  if (dislike === false) kinds.push('dislike');
  return { takeBack: kinds };
}

/** A reference as sent and its last path part: either may name the image (see findByRef). */
function refsOf(ref: string): string[] | undefined {
  let name = '';
  try {
    name = path.posix.basename(decodeURIComponent(ref.split('?')[0] ?? ''));
  } catch {
    return undefined;
  }
  return name && name !== ref ? [ref, name] : [ref];
}

/**
 * Any member may like or dislike (exclusive, per member); only the owner may caption or move. Answers
 * the whole updated image.
 */
export async function patchImage(
  deps: GalleryDeps,
  me: UserRow,
  id: string,
  patch: ImagePatch,
): Promise<GalleryImage> {
  const like = wanted(patch.likes, me.id);
  const dislike = wanted(patch.dislikes, me.id);
  const reacting = like !== undefined || dislike !== undefined;
  const editing = patch.caption !== undefined || patch.folder !== undefined;
  if (!reacting && !editing) throw new Invalid(GALLERY_MESSAGES.nothingToChange);

  let refs: string[] | undefined;
  if (editing) {
    const row = await ownImage(deps, me, id);
    const change: { caption?: string; folder?: string } = {};
    if (patch.caption !== undefined) {
      const caption = displayText(patch.caption).trim();
      if (caption.length > CAPTION_MAX) throw new Invalid(GALLERY_MESSAGES.captionTooLong);
      change.caption = caption;
    }
    if (patch.folder !== undefined) change.folder = normaliseFolder(patch.folder);
    await repo.updateImage(deps.db, row.id, me.id, change);
    refs = [row.id];
  } else {
    refs = refsOf(id);
    if (!refs) throw new NotFound(GALLERY_MESSAGES.notFound);
  }

  const change = reacting ? reactionChange(like, dislike) : undefined;
  const now = stamp(deps);
  // One statement writes the reaction, the image looked up inside it.
  const changed = !change
    ? false
    : 'give' in change
      ? await repo.giveReaction(deps.db, refs, me.id, change.give, now)
      : await repo.takeBackReaction(deps.db, refs, me.id, change.takeBack);
  // One more reads the image back with its owner and every reaction, as this member reads them.
  const found = await repo.imageWithReactions(deps.db, refs, me.id);
  if (!found) throw new NotFound(GALLERY_MESSAGES.notFound);
  const image = toImage(
    found.image,
    ownerOf(found.owner, deps.media.url),
    found.reactions,
    deps.media.url,
  );
  deps.events.updated(liveImage(image), { id: me.id, reaction: reactionOf(image, me.id) });

  // A first like of someone else's photo tells its owner; a like taken back and given again is
  // not news. Written once the like stands (docs/decisions.md "A like in a few statements").
  if (changed && change && 'give' in change && change.give === 'like' && found.owner.id !== me.id) {
    const announce = await recordLikeOnce(
      deps.db,
      drafts.like(found.owner.id, found.owner.username, me, found.image.id),
      now,
    );
    await announce?.({ db: deps.db, events: deps.notifications, mediaUrl: deps.media.url });
  }
  return image;
}

/** The owner's delete: their own image only; anyone else's is not found. */
export async function deleteImage(deps: GalleryDeps, me: UserRow, ref: string): Promise<void> {
  const row = await ownImage(deps, me, ref);
  if (!(await removeImage(deps, row))) throw new NotFound(GALLERY_MESSAGES.notFound);
}

/**
 * An image's id and owner as `viewerId` may see it (docs/product.md "Blocking"): none when there is
 * no such image or its owner and the viewer are blocked either way, alike. One statement.
 */
export function visibleImage(
  deps: Pick<GalleryDeps, 'db'>,
  viewerId: string,
  imageId: string,
): Promise<Pick<GalleryImageRow, 'id' | 'owner_id'> | undefined> {
  return repo.visibleImage(deps.db, viewerId, imageId);
}

/** An image's row by its id, whoever owns it (moderation reads the photo a report names). */
export function imageById(
  deps: Pick<GalleryDeps, 'db'>,
  id: string,
): Promise<GalleryImageRow | undefined> {
  return repo.findImage(deps.db, id);
}

/**
 * Every delete of an image, the owner's and a moderator's (docs/product.md "Moderation"). The row
 * goes first, with whatever `alongside` writes in the same transaction; then the delete is
 * announced, and then the pictures are removed (tried again a few times). Pictures that still
 * cannot be removed are logged and left to the sweep: the delete stands, so a retry of it is not
 * needed (docs/decisions.md "One media store"). Answers false, doing nothing, when the row was
 * already gone.
 */
export async function removeImage(
  deps: Pick<GalleryDeps, 'db' | 'media' | 'events'>,
  row: GalleryImageRow,
  alongside?: (trx: Db) => Promise<void>,
): Promise<boolean> {
  const removed = alongside
    ? await deps.db.transaction().execute(async (trx) => {
        if (!(await repo.deleteImage(trx, row.id, row.owner_id))) return false;
        await alongside(trx);
        return true;
      })
    : await repo.deleteImage(deps.db, row.id, row.owner_id);
  if (!removed) return false;
  deps.events.deleted({ id: row.id, ownerId: row.owner_id });
  await deps.media.discard([galleryKey(row.display_file), galleryKey(row.thumb_file)]);
  return true;
}

export interface ReorderRequest {
  order?: readonly string[] | undefined;
  id?: string | undefined;
  before?: string | undefined;
  after?: string | undefined;
}

/**
 * Saves a new order (docs/decisions.md "Saved order and folders"), read and written under the
 * owner's lock, so concurrent reorders and uploads never share a position:
 * - a list: the positions those images held are handed out again in the new order, so the rest of
 *   the grid stays where it was;
 * - a move: one image goes just before or just after another, the ones between shift by one.
 */
export async function reorder(
  deps: GalleryDeps,
  me: UserRow,
  request: ReorderRequest,
): Promise<void> {
  const moving = request.id !== undefined;
  const target = request.before ?? request.after;
  if (!moving && request.order === undefined) throw new Invalid(GALLERY_MESSAGES.orderInvalid);
  if (moving && request.order !== undefined) throw new Invalid(GALLERY_MESSAGES.moveInvalid);
  if (moving) {
    if (target === undefined || (request.before !== undefined && request.after !== undefined))
      throw new Invalid(GALLERY_MESSAGES.moveInvalid);
    await move(deps, me, request.id ?? '', target, request.before !== undefined);
    return;
  }
  const order = request.order ?? [];
  if (order.length === 0) return;
  if (new Set(order).size !== order.length) throw new Invalid(GALLERY_MESSAGES.orderInvalid);
  await repo.withOwnerLock(deps.db, me.id, async (trx) => {
    const positions = await repo.positionsOf(trx, me.id, order);
    if (!positions) throw new NotFound(GALLERY_MESSAGES.notFound);
    // Positions are unique per owner, so these are as many places as there are images.
    const slots = [...positions.values()].sort((a, b) => a - b);
    await repo.savePositions(
      trx,
      me.id,
      new Map(order.map((id, index) => [id, slots[index] ?? index])),
    );
  });
}

/** One image to just before (or after) another of the owner's; both must be the owner's. */
async function move(
  deps: GalleryDeps,
  me: UserRow,
  id: string,
  target: string,
  before: boolean,
): Promise<void> {
  if (id === target) return;
  await repo.withOwnerLock(deps.db, me.id, async (trx) => {
    const positions = await repo.positionsOf(trx, me.id, [id, target]);
    const from = positions?.get(id);
    const at = positions?.get(target);
    if (from === undefined || at === undefined) throw new NotFound(GALLERY_MESSAGES.notFound);
    // The target's place once the image has left its own: one place nearer when it was beyond.
    const to = before ? (at > from ? at - 1 : at) : at > from ? at : at + 1;
    await repo.moveImage(trx, me.id, id, from, to);
  });
}
