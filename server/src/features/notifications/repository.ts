import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, NewNotificationRow, NotificationRow, UserRow } from '../../db/schema.ts';
import { noBlockBetween, noneOrNotHiddenFrom } from '../../members/blocks.ts';

/**
 * A notification `recipientId` sees: none caused by a member blocked either way with them
 * (docs/product.md "Blocking"); a notification without an actor always. Hidden, not deleted:
 * the condition sits in each statement that lists, counts, marks read or removes, so a hidden one
 * is to the member as one that does not exist.
 * docs/decisions.md "Blocks are enforced inside the statements"
 */
const fromVisibleActor = (recipientId: string) =>
  noneOrNotHiddenFrom(sql.ref('notifications.actor_id'), recipientId);

/** The notifications among `ids` (every one, with ids null) that the recipient sees. */
const chosen =
  (recipientId: string, ids: number[] | null) =>
  (eb: ExpressionBuilder<Database, 'notifications'>) =>
    eb.and([
      eb('recipient_id', '=', recipientId),
      fromVisibleActor(recipientId),
      ...(ids ? [eb('id', 'in', ids)] : []),
    ]);

/** The friend_request notification of a request, to the member the request went to. */
const ofRequest =
  (recipientId: string, requestId: string) => (eb: ExpressionBuilder<Database, 'notifications'>) =>
    eb.and({ recipient_id: recipientId, type: 'friend_request', request_id: requestId });

/** The ids of the rows `statement` changed. */
async function idsOf(statement: { execute(): Promise<{ id: number }[]> }): Promise<number[]> {
  const rows = await statement.execute();
  return rows.map((row) => row.id);
}

/** Notifications with their actor's name and picture (the actor may be gone). */
const withActor = (db: Db) =>
  db
    .selectFrom('notifications')
    .leftJoin('users', 'users.id', 'notifications.actor_id')
    .selectAll('notifications')
    .select(['users.username as actor_username', 'users.profile_image as actor_profile_image']);

type RowWithActor = Awaited<ReturnType<ReturnType<typeof withActor>['executeTakeFirstOrThrow']>>;

function actorOf({
  actor_username,
  actor_profile_image,
  ...notification
}: RowWithActor): NotificationWithActor {
  return {
    notification,
    actor:
      notification.actor_id && actor_username !== null
        ? {
            id: notification.actor_id,
            username: actor_username,
            profile_image: actor_profile_image ?? '',
          }
        : null,
  };
}

export async function insertNotification(
  db: Db,
  row: NewNotificationRow,
): Promise<NotificationRow> {
  return db.insertInto('notifications').values(row).returningAll().executeTakeFirstOrThrow();
}

export interface NotificationWithActor {
  notification: NotificationRow;
  actor: Pick<UserRow, 'id' | 'username' | 'profile_image'> | null;
}

/** A page of a member's notifications, newest first, older than `before` when given. */
export async function pageFor(
  db: Db,
  recipientId: string,
  limit: number,
  before?: number,
): Promise<NotificationWithActor[]> {
  let query = withActor(db)
    .where('notifications.recipient_id', '=', recipientId)
    .where(fromVisibleActor(recipientId));
  if (before !== undefined) query = query.where('notifications.id', '<', before);
  const rows = await query.orderBy('notifications.id', 'desc').limit(limit).execute();
  return rows.map(actorOf);
}

export async function unreadCount(db: Db, recipientId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .where(fromVisibleActor(recipientId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks some (or all, with ids null) of the notifications a member sees read; answers the ids it
 * changed.
 */
export async function markRead(
  db: Db,
  recipientId: string,
  ids: number[] | null,
  now: string,
): Promise<number[]> {
  if (ids?.length === 0) return [];
  return idsOf(
    db
      .updateTable('notifications')
      .set({ read_at: now })
      .where('read_at', 'is', null)
      .where(chosen(recipientId, ids))
      .returning('id'),
  );
}

/** Removes some (or all, with ids null) of the notifications a member sees; answers the ids removed. */
export async function remove(db: Db, recipientId: string, ids: number[] | null): Promise<number[]> {
  if (ids?.length === 0) return [];
  return idsOf(db.deleteFrom('notifications').where(chosen(recipientId, ids)).returning('id'));
}

/** The pending friend_request notification of a request, removed when it is cancelled or declined. */
export async function removeRequestNotification(
  db: Db,
  recipientId: string,
  requestId: string,
): Promise<number[]> {
  return idsOf(
    db.deleteFrom('notifications').where(ofRequest(recipientId, requestId)).returning('id'),
  );
}

/**
 * The friend request and acceptance notifications of a pair, both ways, removed when one of them
 * blocks the other; answers the ids removed with their recipients.
 */
export async function removePairNotifications(
  db: Db,
  memberIds: readonly [string, string],
  requestId: string,
): Promise<{ id: number; recipient_id: string }[]> {
  return db
    .deleteFrom('notifications')
    .where('recipient_id', 'in', [...memberIds])
    .where('type', 'in', ['friend_request', 'follow'])
    .where('request_id', '=', requestId)
    .returning(['id', 'recipient_id'])
    .execute();
}

/**
 * Writes a like notification unless this member already told the owner they like this image (a
 * like taken back and given again is not news), or the two are blocked either way: the checks and
 * the write are one statement. Answers the row written, or undefined when there was none to write.
 */
export async function insertLikeNotificationOnce(
  db: Db,
  row: NewNotificationRow & { actor_id: string; image_id: string },
): Promise<NotificationRow | undefined> {
  return db
    .insertInto('notifications')
    .columns(['recipient_id', 'type', 'actor_id', 'message', 'link', 'image_id', 'created_at'])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.val(row.recipient_id).as('recipient_id'),
          eb.val(row.type).as('type'),
          eb.val(row.actor_id).as('actor_id'),
          eb.val(row.message).as('message'),
          eb.val(row.link ?? '').as('link'),
          eb.val(row.image_id).as('image_id'),
          eb.val(row.created_at).as('created_at'),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(
              db
                .selectFrom('notifications')
                .select('id')
                .where('recipient_id', '=', row.recipient_id)
                .where('type', '=', row.type)
                .where('actor_id', '=', row.actor_id)
                .where('image_id', '=', row.image_id),
            ),
          ),
        )
        .where(noBlockBetween(row.recipient_id, row.actor_id)),
    )
    .returningAll()
    .executeTakeFirst();
}

/** A friend request that was answered stays in the list, read. */
export async function markRequestRead(
  db: Db,
  recipientId: string,
  requestId: string,
  now: string,
): Promise<number[]> {
  return idsOf(
    db
      .updateTable('notifications')
      .set({ read_at: now })
      .where(ofRequest(recipientId, requestId))
      .where('read_at', 'is', null)
      .returning('id'),
  );
}
