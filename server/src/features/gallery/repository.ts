import { PostgresAdapter, type Transaction, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import type { GalleryImageRow, ImageReactionRow, UserRow } from '../../db/schema.ts';

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

/**
 * A new image goes before every other one of its owner (newest first, also after a reorder). The
 * place is taken under the owner's lock, so concurrent uploads never share one.
 */
export async function insertImage(db: Db, image: NewImage): Promise<void> {
  await withOwnerLock(db, image.ownerId, (trx) => insertUnlocked(trx, image));
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
    })
    .execute();
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

export function reactionsFor(db: Db, imageIds: readonly string[]): Promise<ImageReactionRow[]> {
  if (imageIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('image_reactions')
    .selectAll()
    .where('image_id', 'in', imageIds)
    .orderBy('created_at')
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
  const result = await db
    .updateTable('gallery_images')
    .set(change)
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteImage(db: Db, id: string, ownerId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('gallery_images')
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Sets one member's reaction to an image: like, dislike or none (one row per member and image). */
export async function setReaction(
  db: Db,
  imageId: string,
  userId: string,
  kind: 'like' | 'dislike' | null,
  now: string,
): Promise<void> {
  if (kind === null) {
    await db
      .deleteFrom('image_reactions')
      .where('image_id', '=', imageId)
      .where('user_id', '=', userId)
      .execute();
    return;
  }
  await db
    .insertInto('image_reactions')
    .values({ image_id: imageId, user_id: userId, kind, created_at: now })
    .onConflict((conflict) =>
      conflict.columns(['image_id', 'user_id']).doUpdateSet({ kind, created_at: now }),
    )
    .execute();
}

export async function reactionOf(
  db: Db,
  imageId: string,
  userId: string,
): Promise<'like' | 'dislike' | null> {
  const row = await db
    .selectFrom('image_reactions')
    .select('kind')
    .where('image_id', '=', imageId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.kind ?? null;
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
    await trx
      .updateTable('gallery_images')
      .set({ position: aside })
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .execute();
  }
  for (const [id, position] of positions) {
    await trx
      .updateTable('gallery_images')
      .set({ position })
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .execute();
  }
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
  await trx
    .updateTable('gallery_images')
    .set({ position: lowest })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .execute();
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
  await trx
    .updateTable('gallery_images')
    .set({ position: to })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .execute();
}
