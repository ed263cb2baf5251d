/**
 * What a member's download reads (docs/product.md "Leaving"): each list a page at a time, after the
 * key of the page before, so however much a member has, the server holds one page of it.
 */
import type { Db } from '../../db/index.ts';

/** Rows per page of every list. */
export const EXPORT_PAGE = 500;

export interface RelationRow {
  pair_key: string;
  status: 'pending' | 'accepted';
  created_at: string;
  updated_at: string;
  other_id: string;
  other_username: string;
}

/**
 * The member's friendships and requests on one side: `side` is the column that names the member
 * (`requester_id`: requests they sent), the other member joined from the other column.
 */
export function relationsPage(
  db: Db,
  userId: string,
  side: 'requester_id' | 'addressee_id',
  status: 'pending' | 'accepted',
  after: string | undefined,
): Promise<RelationRow[]> {
  const other = side === 'requester_id' ? 'friendships.addressee_id' : 'friendships.requester_id';
  let query = db
    .selectFrom('friendships')
    .innerJoin('users', 'users.id', other)
    .select([
      'friendships.pair_key',
      'friendships.status',
      'friendships.created_at',
      'friendships.updated_at',
      'users.id as other_id',
      'users.username as other_username',
    ])
    .where(`friendships.${side}`, '=', userId)
    .where('friendships.status', '=', status);
  if (after !== undefined) query = query.where('friendships.pair_key', '>', after);
  return query.orderBy('friendships.pair_key').limit(EXPORT_PAGE).execute();
}

export interface NotificationExportRow {
  id: number;
  type: string;
  message: string;
  link: string;
  read_at: string | null;
  created_at: string;
  actor_username: string | null;
}

/** The member's notifications, oldest first. */
export function notificationsPage(
  db: Db,
  userId: string,
  after: number | undefined,
): Promise<NotificationExportRow[]> {
  let query = db
    .selectFrom('notifications')
    .leftJoin('users', 'users.id', 'notifications.actor_id')
    .select([
      'notifications.id',
      'notifications.type',
      'notifications.message',
      'notifications.link',
      'notifications.read_at',
      'notifications.created_at',
      'users.username as actor_username',
    ])
    .where('notifications.recipient_id', '=', userId);
  if (after !== undefined) query = query.where('notifications.id', '>', after);
  return query.orderBy('notifications.id').limit(EXPORT_PAGE).execute();
}

export interface ReactionExportRow {
  image_id: string;
  user_id: string;
  kind: 'like' | 'dislike';
  created_at: string;
  /** The photo's owner (given) or the member who reacted (received). */
  username: string;
}

/** Reactions the member gave, by photo, each with the photo's owner. */
export function reactionsGivenPage(
  db: Db,
  userId: string,
  after: string | undefined,
): Promise<ReactionExportRow[]> {
  let query = db
    .selectFrom('image_reactions')
    .innerJoin('gallery_images', 'gallery_images.id', 'image_reactions.image_id')
    .innerJoin('users', 'users.id', 'gallery_images.owner_id')
    .select([
      'image_reactions.image_id',
      'image_reactions.user_id',
      'image_reactions.kind',
      'image_reactions.created_at',
      'users.username',
    ])
    .where('image_reactions.user_id', '=', userId);
  if (after !== undefined) query = query.where('image_reactions.image_id', '>', after);
  return query.orderBy('image_reactions.image_id').limit(EXPORT_PAGE).execute();
}

/** Reactions to the member's photos, by photo and member, each with who reacted. */
export function reactionsReceivedPage(
  db: Db,
  userId: string,
  after: { imageId: string; userId: string } | undefined,
): Promise<ReactionExportRow[]> {
  let query = db
    .selectFrom('image_reactions')
    .innerJoin('gallery_images', 'gallery_images.id', 'image_reactions.image_id')
    .innerJoin('users', 'users.id', 'image_reactions.user_id')
    .select([
      'image_reactions.image_id',
      'image_reactions.user_id',
      'image_reactions.kind',
      'image_reactions.created_at',
      'users.username',
    ])
    .where('gallery_images.owner_id', '=', userId);
  if (after !== undefined)
    query = query.where((eb) =>
      eb.or([
        eb('image_reactions.image_id', '>', after.imageId),
        eb.and([
          eb('image_reactions.image_id', '=', after.imageId),
          eb('image_reactions.user_id', '>', after.userId),
        ]),
      ]),
    );
  return query
    .orderBy('image_reactions.image_id')
    .orderBy('image_reactions.user_id')
    .limit(EXPORT_PAGE)
    .execute();
}

export interface ReportExportRow {
  id: number;
  target_kind: 'image' | 'member';
  target_id: string;
  reason: string;
  note: string;
  status: 'open' | 'resolved';
  resolution: string | null;
  created_at: string;
  resolved_at: string | null;
  /** The member reported, or the photo's owner; null once their account is gone. */
  target_username: string | null;
}

/** Reports the member made, oldest first. */
export function reportsPage(
  db: Db,
  userId: string,
  after: number | undefined,
): Promise<ReportExportRow[]> {
  let query = db
    .selectFrom('reports')
    .leftJoin('users', 'users.id', 'reports.target_user_id')
    .select([
      'reports.id',
      'reports.target_kind',
      'reports.target_id',
      'reports.reason',
      'reports.note',
      'reports.status',
      'reports.resolution',
      'reports.created_at',
      'reports.resolved_at',
      'users.username as target_username',
    ])
    .where('reports.reporter_id', '=', userId);
  if (after !== undefined) query = query.where('reports.id', '>', after);
  return query.orderBy('reports.id').limit(EXPORT_PAGE).execute();
}

export interface BlockExportRow {
  blocked_id: string;
  created_at: string;
  username: string;
}

/** Members the member blocked. */
export function blocksPage(
  db: Db,
  userId: string,
  after: string | undefined,
): Promise<BlockExportRow[]> {
  let query = db
    .selectFrom('blocks')
    .innerJoin('users', 'users.id', 'blocks.blocked_id')
    .select(['blocks.blocked_id', 'blocks.created_at', 'users.username'])
    .where('blocks.blocker_id', '=', userId);
  if (after !== undefined) query = query.where('blocks.blocked_id', '>', after);
  return query.orderBy('blocks.blocked_id').limit(EXPORT_PAGE).execute();
}

export interface PhotoExportRow {
  id: string;
  display_file: string;
  width: number;
  height: number;
  folder: string;
  caption: string;
  position: number;
  created_at: string;
}

/** The member's photos in gallery order (docs/decisions.md "Saved order and folders"). */
export function photosPage(
  db: Db,
  userId: string,
  after: number | undefined,
): Promise<PhotoExportRow[]> {
  let query = db
    .selectFrom('gallery_images')
    .select([
      'id',
      'display_file',
      'width',
      'height',
      'folder',
      'caption',
      'position',
      'created_at',
    ])
    .where('owner_id', '=', userId);
  if (after !== undefined) query = query.where('position', '>', after);
  return query.orderBy('position').limit(EXPORT_PAGE).execute();
}

export async function countPhotos(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('gallery_images')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
