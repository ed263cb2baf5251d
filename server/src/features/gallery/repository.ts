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

export function listImages(db: Db, ownerId: string, folder?: string): Promise<GalleryImageRow[]> {
  let query = db.selectFrom('gallery_images').selectAll().where('owner_id', '=', ownerId);
  if (folder) query = query.where('folder', '=', folder);
  return query.orderBy('position').orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function listFolders(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('gallery_images')
    .select('folder')
    .distinct()
    .where('owner_id', '=', ownerId)
    .orderBy('folder')
    .execute();
  return rows.map((row) => row.folder);
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
