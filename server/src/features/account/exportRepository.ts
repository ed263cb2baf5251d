/**
 * What a member's download reads (docs/product.md "Leaving"): each list a page at a time, after the
 * key of the page before, so however much a member has, the server holds one page of it. Every
 * other member a list names is seen as the API shows them to the member (docs/decisions.md
 * "Leaving: delete and export"): what one blocked either way with them did is left out, and what
 * the member did names them not at all.
 */
import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { hiddenFrom, noneOrNotHiddenFrom, notHiddenFrom } from '../../members/blocks.ts';
import { friendshipsOfSide } from '../../members/friendships.ts';

/** Rows per page of every list. */
const EXPORT_PAGE = 500;

type Key = string | number;

/** `keys` after `values` in their order: (a > x) or (a = x and (b > y …)). */
function after(keys: readonly string[], values: readonly Key[]): RawBuilder<SqlBool> {
  const [key = '', ...laterKeys] = keys;
  const [value = '', ...laterValues] = values;
  const column = sql.ref(key);
  if (laterKeys.length === 0) return sql<SqlBool>`${column} > ${value}`;
  return sql<SqlBool>`(${column} > ${value} or (${column} = ${value} and ${after(laterKeys, laterValues)}))`;
}

/**
 * Every row of `query` in the order of `keys`, EXPORT_PAGE at a time, each page read after the key
 * of the last row before (each key column is selected under its own name).
 */
async function* every<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  keys: readonly string[],
): AsyncGenerator<O> {
  let from: Key[] | undefined;
  for (;;) {
    let ordered = from === undefined ? query : query.where(after(keys, from));
    for (const key of keys) ordered = ordered.orderBy(sql.ref(key));
    const rows = await ordered.limit(EXPORT_PAGE).execute();
    yield* rows as Awaited<O>[];
    const last = rows.at(-1) as Record<string, Key> | undefined;
    if (rows.length < EXPORT_PAGE || last === undefined) return;
    from = keys.map((key) => last[key.slice(key.lastIndexOf('.') + 1)] ?? '');
  }
}

/** The username of the member in `id` as `viewerId` may see it: null when hidden by a block. */
function usernameFor(viewerId: string, id: string, username: string) {
  return sql<
    string | null
  >`case when ${notHiddenFrom(sql.ref(id), viewerId)} then ${sql.ref(username)} end`;
}

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
 * (`requester_id`: requests they sent), the other member joined from the other column. A block
 * ends both, so none is left between blocked members; the friends lists' rule holds here anyway.
 */
export function relations(
  db: Db,
  userId: string,
  side: 'requester_id' | 'addressee_id',
  status: 'pending' | 'accepted',
): AsyncGenerator<RelationRow> {
  const query = friendshipsOfSide(db, userId, side, status, userId).select([
    'friendships.pair_key',
    'friendships.status',
    'friendships.created_at',
    'friendships.updated_at',
    'users.id as other_id',
    'users.username as other_username',
  ]);
  return every(query, ['friendships.pair_key']);
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

/** The member's notifications, oldest first: those the list shows them, none a hidden member caused. */
export function notifications(db: Db, userId: string): AsyncGenerator<NotificationExportRow> {
  const query = db
    .selectFrom('notifications')
    .leftJoin('users', 'users.id', 'notifications.actor_id')
    .where('notifications.recipient_id', '=', userId)
    .where(noneOrNotHiddenFrom(sql.ref('notifications.actor_id'), userId))
    .select([
      'notifications.id',
      'notifications.type',
      'notifications.message',
      'notifications.link',
      'notifications.read_at',
      'notifications.created_at',
      'users.username as actor_username',
    ]);
  return every(query, ['notifications.id']);
}

export interface ReactionExportRow {
  image_id: string;
  user_id: string;
  kind: 'like' | 'dislike';
  created_at: string;
  /** The photo's owner (given; null when a block hides them) or the member who reacted (received). */
  username: string | null;
}

/** Reactions to photos, each with the photo and the member named in `member` joined. */
function reactionsWith(db: Db, member: 'gallery_images.owner_id' | 'image_reactions.user_id') {
  return db
    .selectFrom('image_reactions')
    .innerJoin('gallery_images', 'gallery_images.id', 'image_reactions.image_id')
    .innerJoin('users', 'users.id', member)
    .select([
      'image_reactions.image_id',
      'image_reactions.user_id',
      'image_reactions.kind',
      'image_reactions.created_at',
    ]);
}

/** Reactions the member gave, by photo, each with the photo's owner unless a block hides them. */
export function reactionsGiven(db: Db, userId: string): AsyncGenerator<ReactionExportRow> {
  const query = reactionsWith(db, 'gallery_images.owner_id')
    .select(usernameFor(userId, 'users.id', 'users.username').as('username'))
    .where('image_reactions.user_id', '=', userId);
  return every(query, ['image_reactions.image_id']);
}

/**
 * Reactions to the member's photos, by photo and member, each with who reacted: none of a member
 * blocked either way, whose reactions the photos' answers leave out.
 */
export function reactionsReceived(db: Db, userId: string): AsyncGenerator<ReactionExportRow> {
  const query = reactionsWith(db, 'image_reactions.user_id')
    .select('users.username')
    .where('gallery_images.owner_id', '=', userId)
    .where(notHiddenFrom(sql.ref('image_reactions.user_id'), userId));
  return every(query, ['image_reactions.image_id', 'image_reactions.user_id']);
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
  /** 1 while a block either way hides that member from the reporter. */
  target_hidden: number;
}

/** Reports the member made, oldest first. */
export function reports(db: Db, userId: string): AsyncGenerator<ReportExportRow> {
  const query = db
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
      sql<number>`case when users.id in ${hiddenFrom(userId)} then 1 else 0 end`.as(
        'target_hidden',
      ),
    ])
    .where('reports.reporter_id', '=', userId);
  return every(query, ['reports.id']);
}

export interface BlockExportRow {
  blocked_id: string;
  created_at: string;
  /** As the block kept it (docs/decisions.md "The block list names whom one blocked as one knew them"). */
  blocked_username: string | null;
}

/** Members the member blocked, as the block list shows them. */
export function blocks(db: Db, userId: string): AsyncGenerator<BlockExportRow> {
  const query = db
    .selectFrom('blocks')
    .select(['blocked_id', 'created_at', 'blocked_username'])
    .where('blocker_id', '=', userId);
  return every(query, ['blocked_id']);
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
export function photos(db: Db, userId: string): AsyncGenerator<PhotoExportRow> {
  const query = db
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
  return every(query, ['position']);
}

export async function countPhotos(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('gallery_images')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
