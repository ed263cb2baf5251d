import { type Transaction, sql } from 'kysely';
import { changedAny } from '../../db/changes.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { galleryKey } from '../../media/index.ts';
import { idVisibleTo } from '../../members/blocks.ts';

/** A friendship or request the deleted member was part of, seen from the other side. */
export interface EndedRelation {
  otherId: string;
  status: 'pending' | 'accepted';
  /** Whether the deleted member sent the request (for a pending one). */
  sentByMember: boolean;
}

/** What went with an account, for what has to be said and removed once the deletion committed. */
export interface RemovedAccount {
  /** The member's sessions (for the caches of every node). */
  sessions: string[];
  relations: EndedRelation[];
  /**
   * Notifications of other members that went with the account, per recipient: none of a member
   * blocked either way with the one leaving, whose list never showed them.
   */
  othersNotifications: Map<string, number[]>;
  /** Every picture the member's rows named: both sizes of each photo, and the avatar. */
  pictures: string[];
}

/**
 * Deletes a member and every row keyed to them (docs/product.md "Leaving"), in the caller's
 * transaction. Every statement names the member by their id alone, or reaches their photos
 * through a sub-select, so none binds more than the id (once or twice) however much the member owns.
 * Answers undefined when there was no such member (a deletion that already happened).
 */
export async function deleteAccountRows(
  trx: Transaction<Database>,
  userId: string,
): Promise<RemovedAccount | undefined> {
  const theirImages = trx.selectFrom('gallery_images').select('id').where('owner_id', '=', userId);

  // To them, from them, and about their photos (whoever they were sent to): one statement each,
  // so each finds its rows through its own index. Each names its recipient only where the list
  // showed it: the blocks are still there (docs/decisions.md "Leaving: delete and export").
  const removed = [
    trx.deleteFrom('notifications').where('recipient_id', '=', userId),
    trx.deleteFrom('notifications').where('actor_id', '=', userId),
    trx.deleteFrom('notifications').where('image_id', 'in', theirImages),
  ].map((statement) =>
    statement.returning(['id', idVisibleTo(sql.ref('recipient_id'), userId).as('told')]),
  );
  const notifications = [];
  for (const statement of removed) notifications.push(...(await statement.execute()));
  const othersNotifications = new Map<string, number[]>();
  for (const row of notifications) {
    if (row.told === null || row.told === userId) continue;
    const ids = othersNotifications.get(row.told) ?? [];
    ids.push(row.id);
    othersNotifications.set(row.told, ids);
  }

  // Rows that only name them, with nothing to tell afterwards: reactions they gave and reactions on
  // their photos (before the photos go, which the sub-select reads), their push subscriptions,
  // blocks either way, and the reports they made. Reports about them stay for moderators
  // (docs/product.md "Leaving"). One statement each, so each finds its rows through its own index.
  const unanswered = [
    trx.deleteFrom('image_reactions').where('user_id', '=', userId),
    trx.deleteFrom('image_reactions').where('image_id', 'in', theirImages),
    trx.deleteFrom('push_subscriptions').where('user_id', '=', userId),
    trx
      .deleteFrom('blocks')
      .where((eb) => eb.or([eb('blocker_id', '=', userId), eb('blocked_id', '=', userId)])),
    trx.deleteFrom('reports').where('reporter_id', '=', userId),
  ];
  for (const statement of unanswered) await statement.execute();

  const images = await trx
    .deleteFrom('gallery_images')
    .where('owner_id', '=', userId)
    .returning(['display_file', 'thumb_file'])
    .execute();
  const friendships = await trx
    .deleteFrom('friendships')
    .where((eb) => eb.or([eb('requester_id', '=', userId), eb('addressee_id', '=', userId)]))
    .returning(['requester_id', 'addressee_id', 'status'])
    .execute();
  const sessions = await trx
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .returning('id')
    .execute();
  const member = await trx
    .deleteFrom('users')
    .where('id', '=', userId)
    .returning('profile_image')
    .executeTakeFirst();
  if (!member) return undefined;

  return {
    sessions: sessions.map((row) => row.id),
    relations: friendships.map((row) => ({
      otherId: row.requester_id === userId ? row.addressee_id : row.requester_id,
      status: row.status,
      sentByMember: row.requester_id === userId,
    })),
    othersNotifications,
    pictures: [
      ...images.flatMap((row) => [galleryKey(row.display_file), galleryKey(row.thumb_file)]),
      ...(member.profile_image ? [member.profile_image] : []),
    ],
  };
}

/**
 * Starts a download of the member's data unless one started less than `since` ago: one statement,
 * so of two requests at once only one gets it (docs/product.md "Leaving"). Answers whether it did.
 */
export function stampExport(db: Db, userId: string, now: string, since: string): Promise<boolean> {
  return changedAny(
    db
      .updateTable('users')
      .set({ last_export_at: now })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('last_export_at', 'is', null), eb('last_export_at', '<=', since)])),
  );
}

/** When the member last started a download (null: never; undefined: no such member). */
export async function lastExportAt(db: Db, userId: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('users')
    .select('last_export_at')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ? row.last_export_at : undefined;
}

/** Gives a download's turn back, unless another has started since. */
export async function restoreExportStamp(
  db: Db,
  userId: string,
  ours: string,
  previous: string | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_export_at: previous })
    .where('id', '=', userId)
    .where('last_export_at', '=', ours)
    .execute();
}
