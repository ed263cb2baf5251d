import { PostgresAdapter, type Transaction, sql } from 'kysely';
import { changedAny } from '../../db/changes.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import type { GalleryImageRow, ImageReactionRow, UserRow } from '../../db/schema.ts';
import { idVisibleTo, noBlockBetween } from '../../members/blocks.ts';

/**
 * The `Idempotency-Key` an upload was sent with, and the start of the key's lifetime: a photo the
 * key made before then belongs to an earlier use of it (docs/decisions.md "Idempotency keys").
 */
interface UploadKey {
  key: string;
  since: string;
}

export interface NewImage {
  id: string;
  ownerId: string;
  displayFile: string;
  thumbFile: string;
  width: number;
  height: number;
  bytes: number;
  folder: string;
  createdAt: string;
  uploadKey?: UploadKey | undefined;
}

/**
 * Runs `work` in a transaction that no other change of this owner's positions overlaps, so each
 * image keeps a place of its own (docs/decisions.md "Saved order and folders"). PostgreSQL locks
 * the owner's row (`FOR NO KEY UPDATE`: other writers of the gallery wait, while rows that merely
 * refer to the member, such as sessions or reactions, are not held up). SQLite needs no lock: the
 * app has one connection, and Kysely hands it to one transaction at a time.
 */
export function withOwnerLock<T>(
  db: Db,
  ownerId: string,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter)
      await trx
        .selectFrom('users')
        .select('id')
        .where('id', '=', ownerId)
        .forNoKeyUpdate()
        .execute();
    return work(trx);
  });
}

/** The owner's photo an upload sent with this key made within the key's lifetime, if any. */
export function imageByUploadKey(
  db: Db,
  ownerId: string,
  uploadKey: UploadKey,
): Promise<GalleryImageRow | undefined> {
  return db
    .selectFrom('gallery_images')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('idempotency_key', '=', uploadKey.key)
    .where('created_at', '>=', uploadKey.since)
    .executeTakeFirst();
}

/**
 * A new image goes before every other one of its owner (newest first, also after a reorder). The
 * place is taken under the owner's lock, so concurrent uploads never share one. An upload with an
 * Idempotency-Key stores the key on its row in the same transaction; when the key already made a
 * photo within its lifetime, that photo is answered and nothing is inserted (an older photo gives
 * the key up: after its lifetime it is a new key).
 */
export function insertImage(db: Db, image: NewImage): Promise<GalleryImageRow | undefined> {
  return withOwnerLock(db, image.ownerId, async (trx) => {
    const { uploadKey } = image;
    if (uploadKey) {
      const made = await imageByUploadKey(trx, image.ownerId, uploadKey);
      if (made) return made;
      await trx
        .updateTable('gallery_images')
        .set({ idempotency_key: null })
        .where('owner_id', '=', image.ownerId)
        .where('idempotency_key', '=', uploadKey.key)
        .execute();
    }
    await insertUnlocked(trx, image);
    return undefined;
  });
}

async function insertUnlocked(db: Db, image: NewImage): Promise<void> {
  await db
    .insertInto('gallery_images')
    .values({
      id: image.id,
      owner_id: image.ownerId,
      display_file: image.displayFile,
      thumb_file: image.thumbFile,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      folder: image.folder,
      caption: '',
      position: sql<number>`(select coalesce(min(position), 0) - 1 from gallery_images where owner_id = ${image.ownerId})`,
      created_at: image.createdAt,
      idempotency_key: image.uploadKey?.key ?? null,
    })
    .execute();
}

/** A photo as `viewerId` may see it: none when absent or when its owner is blocked either way. */
export function visibleImage(
  db: Db,
  viewerId: string,
  imageId: string,
): Promise<Pick<GalleryImageRow, 'id' | 'owner_id'> | undefined> {
  return db
    .selectFrom('gallery_images')
    .select(['id', 'owner_id'])
    .where('id', '=', imageId)
    .where(noBlockBetween(sql.ref('gallery_images.owner_id'), viewerId))
    .executeTakeFirst();
}

export function findImage(db: Db, id: string): Promise<GalleryImageRow | undefined> {
  return db.selectFrom('gallery_images').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An image by its id or either of its file names. */
export function findImageByRef(db: Db, ref: string): Promise<GalleryImageRow | undefined> {
  return db
    .selectFrom('gallery_images')
    .selectAll()
    .where((eb) =>
      eb.or([eb('id', '=', ref), eb('display_file', '=', ref), eb('thumb_file', '=', ref)]),
    )
    .executeTakeFirst();
}

/**
 * One page of a gallery in saved order: the images after position `after` (none: from the start),
 * at most `limit`. Positions are unique per owner, so position alone orders the gallery and a page
 * starts where the last one ended whatever was added before it meanwhile (keyset, never OFFSET);
 * served by the (owner, position) and (owner, folder, position) indexes.
 */
export function listImages(
  db: Db,
  ownerId: string,
  page: { folder?: string | undefined; after?: number | undefined; limit: number },
): Promise<GalleryImageRow[]> {
  let query = db.selectFrom('gallery_images').selectAll().where('owner_id', '=', ownerId);
  if (page.folder) query = query.where('folder', '=', page.folder);
  if (page.after !== undefined) query = query.where('position', '>', page.after);
  return query.orderBy('position').limit(page.limit).execute();
}

/** How many images the owner has, in one folder or in all. */
export async function countImages(db: Db, ownerId: string, folder?: string): Promise<number> {
  let query = db
    .selectFrom('gallery_images')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('owner_id', '=', ownerId);
  if (folder) query = query.where('folder', '=', folder);
  const row = await query.executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The owner's folder names with how many images each holds, in one grouped query. */
export async function listFolders(
  db: Db,
  ownerId: string,
): Promise<{ folder: string; count: number }[]> {
  const rows = await db
    .selectFrom('gallery_images')
    .select((eb) => ['folder', eb.fn.countAll<number | string>().as('count')])
    .where('owner_id', '=', ownerId)
    .groupBy('folder')
    .orderBy('folder')
    .execute();
  return rows.map((row) => ({ folder: row.folder, count: Number(row.count) }));
}

/** How many likes the owner's images received, counted in the database. */
export async function countLikesReceived(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('image_reactions')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    // Driven from the owner's images (their index), never a scan of every member's reactions.
    .where('image_id', 'in', (eb) =>
      eb.selectFrom('gallery_images').select('id').where('owner_id', '=', ownerId),
    )
    .where('kind', '=', 'like')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * A reaction as one member reads it (docs/decisions.md "Reactions under a block"): `user_id` is
 * null when the member who reacted and the one reading are blocked either way, so the reaction
 * counts but names nobody, and the hidden id never leaves the database.
 */
export interface SeenReaction {
  image_id: string;
  user_id: string | null;
  kind: ImageReactionRow['kind'];
}

/** The reactions to these images (oldest first) as `viewerId` reads them, in one statement. */
export function reactionsFor(
  db: Db,
  imageIds: readonly string[],
  viewerId: string,
): Promise<SeenReaction[]> {
  if (imageIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('image_reactions')
    .select((eb) => [
      'image_reactions.image_id',
      'image_reactions.kind',
      idVisibleTo(eb.ref('image_reactions.user_id'), viewerId).as('user_id'),
    ])
    .where('image_reactions.image_id', 'in', imageIds)
    .orderBy('image_reactions.created_at')
    .execute();
}

export function owner(db: Db, ownerId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', ownerId).executeTakeFirst();
}

export async function updateImage(
  db: Db,
  id: string,
  ownerId: string,
  change: { caption?: string; folder?: string },
): Promise<boolean> {
  return changedAny(
    db
      .updateTable('gallery_images')
      .set(change)
      .where('id', '=', id)
      .where('owner_id', '=', ownerId),
  );
}

export function deleteImage(db: Db, id: string, ownerId: string): Promise<boolean> {
  return changedAny(
    db.deleteFrom('gallery_images').where('id', '=', id).where('owner_id', '=', ownerId),
  );
}

/**
 * The image a reference names: its id or either file name, trying each of `refs` (the reference
 * as sent and its last path part), unless its owner and `viewerId` are blocked either way
 * (docs/product.md "Blocking"). A subquery, so a reaction finds its image in its own statement.
 */
function imageIdByRef(db: Db, refs: readonly string[], viewerId: string) {
  return db
    .selectFrom('gallery_images')
    .select('gallery_images.id')
    .where((eb) =>
      eb.or([
        eb('gallery_images.id', 'in', refs),
        eb('gallery_images.display_file', 'in', refs),
        eb('gallery_images.thumb_file', 'in', refs),
      ]),
    )
    .where(noBlockBetween(sql.ref('gallery_images.owner_id'), viewerId))
    .limit(1);
}

/**
 * Gives one member's like or dislike to the image `refs` names, in one statement: the image is
 * looked up inside it, and a reaction already of that kind is left as it was (its time too).
 * Answers whether anything changed; false also when there is no such image.
 */
export async function giveReaction(
  db: Db,
  refs: readonly string[],
  userId: string,
  kind: 'like' | 'dislike',
  now: string,
): Promise<boolean> {
  const rows = await db
    .insertInto('image_reactions')
    .columns(['image_id', 'user_id', 'kind', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('gallery_images')
        .select((inner) => [
          'gallery_images.id',
          inner.val(userId).as('user_id'),
          inner.val(kind).as('kind'),
          inner.val(now).as('created_at'),
        ])
        .where('gallery_images.id', '=', imageIdByRef(db, refs, userId)),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['image_id', 'user_id'])
        .doUpdateSet((eb) => ({
          kind: eb.ref('excluded.kind'),
          created_at: eb.ref('excluded.created_at'),
        }))
        .where('image_reactions.kind', '<>', kind),
    )
    .returning('image_id')
    .execute();
  return rows.length > 0;
}

/** Takes back one member's reaction of the given kinds to the image `refs` names, in one statement. */
export async function takeBackReaction(
  db: Db,
  refs: readonly string[],
  userId: string,
  kinds: readonly ('like' | 'dislike')[],
): Promise<boolean> {
  if (kinds.length === 0) return false;
  const rows = await db
    .deleteFrom('image_reactions')
    .where('user_id', '=', userId)
    .where('kind', 'in', kinds)
    .where('image_id', '=', imageIdByRef(db, refs, userId))
    .returning('image_id')
    .execute();
  return rows.length > 0;
}

export interface ImageWithReactions {
  image: GalleryImageRow;
  owner: Pick<UserRow, 'id' | 'username' | 'profile_image'>;
  reactions: SeenReaction[];
}

/**
 * The image `refs` names with its owner and every reaction (oldest first) as `viewerId` reads
 * them, in one statement; none when its owner and `viewerId` are blocked either way.
 */
export async function imageWithReactions(
  db: Db,
  refs: readonly string[],
  viewerId: string,
): Promise<ImageWithReactions | undefined> {
  const rows = await db
    .selectFrom('gallery_images')
    .innerJoin('users', 'users.id', 'gallery_images.owner_id')
    .leftJoin('image_reactions', 'image_reactions.image_id', 'gallery_images.id')
    .selectAll('gallery_images')
    .select((eb) => [
      'users.username as owner_username',
      'users.profile_image as owner_profile_image',
      idVisibleTo(eb.ref('image_reactions.user_id').$notNull(), viewerId).as('reaction_user_id'),
      'image_reactions.kind as reaction_kind',
    ])
    .where('gallery_images.id', '=', imageIdByRef(db, refs, viewerId))
    .orderBy('image_reactions.created_at')
    .orderBy('image_reactions.user_id')
    .execute();
  const first = rows[0];
  if (!first) return undefined;
  const {
    owner_username,
    owner_profile_image,
    reaction_user_id: _user,
    reaction_kind: _kind,
    ...image
  } = first;
  const reactions: SeenReaction[] = [];
  for (const row of rows) {
    // No reaction at all (the left join's empty row); a hidden member's has a kind and no id.
    if (row.reaction_kind === null) continue;
    reactions.push({ image_id: image.id, user_id: row.reaction_user_id, kind: row.reaction_kind });
  }
  return {
    image,
    owner: { id: image.owner_id, username: owner_username, profile_image: owner_profile_image },
    reactions,
  };
}

/** Positions of the given images, when every one belongs to the owner; else undefined. */
export async function positionsOf(
  db: Db,
  ownerId: string,
  ids: readonly string[],
): Promise<Map<string, number> | undefined> {
  const rows = await db
    .selectFrom('gallery_images')
    .select(['id', 'position'])
    .where('owner_id', '=', ownerId)
    .where('id', 'in', ids)
    .execute();
  if (rows.length !== new Set(ids).size) return undefined;
  return new Map(rows.map((row) => [row.id, row.position]));
}

/** Puts one of the owner's images at `position`. */
async function place(
  trx: Transaction<Database>,
  ownerId: string,
  id: string,
  position: number,
): Promise<void> {
  await trx
    .updateTable('gallery_images')
    .set({ position })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .execute();
}

/**
 * Writes new positions; call it inside withOwnerLock, which makes the reorder whole or nothing.
 * Positions are unique per owner, so the images first step aside below the owner's smallest
 * position and then take their new places: a swap never has two images on one place.
 */
export async function savePositions(
  trx: Transaction<Database>,
  ownerId: string,
  positions: ReadonlyMap<string, number>,
): Promise<void> {
  const lowest = await trx
    .selectFrom('gallery_images')
    .select((eb) => eb.fn.min<number>('position').as('min'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  let aside = Number(lowest?.min ?? 0);
  for (const id of positions.keys()) {
    aside -= 1;
    await place(trx, ownerId, id, aside);
  }
  for (const [id, position] of positions) await place(trx, ownerId, id, position);
}

/**
 * Moves one image to place `to`; the images between its old place and `to` shift by one place
 * towards the old one. Call it inside withOwnerLock. Positions are unique per owner, so the image
 * and the images that shift first step aside below the owner's smallest position (keeping their
 * order), then take their new places: four updates whatever the distance, none with a list of ids.
 */
export async function moveImage(
  trx: Transaction<Database>,
  ownerId: string,
  id: string,
  from: number,
  to: number,
): Promise<void> {
  if (from === to) return;
  const bounds = await trx
    .selectFrom('gallery_images')
    .select((eb) => [
      eb.fn.min<number>('position').as('min'),
      eb.fn.max<number>('position').as('max'),
    ])
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  const lowest = Number(bounds?.min ?? 0) - 1;
  const highest = Number(bounds?.max ?? 0);
  await place(trx, ownerId, id, lowest);
  // Later than `from`: the images up to `to` come one place earlier; earlier: those from `to` go one later.
  const [low, high, step] = to > from ? [from + 1, to, -1] : [to, from - 1, 1];
  // Far enough below that no image is there: every shifted position ends under `lowest`.
  const aside = highest - lowest + 1;
  const shift = (delta: number, lowAt: number, highAt: number) =>
    trx
      .updateTable('gallery_images')
      .set({ position: sql<number>`position + ${delta}` })
      .where('owner_id', '=', ownerId)
      .where('position', '>=', lowAt)
      .where('position', '<=', highAt)
      .execute();
  await shift(-aside, low, high);
  await shift(aside + step, low - aside, high - aside);
  await place(trx, ownerId, id, to);
}
