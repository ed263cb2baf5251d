import { sql } from 'kysely';
import { changedAny, rowsChanged } from '../../db/changes.ts';
import type { Db, Dialect } from '../../db/index.ts';
import { prefixedColumns, takePrefixed } from '../../db/joined.ts';
import type { NotificationRow, PushSubscriptionRow, UserRow } from '../../db/schema.ts';
import { noBlockBetween } from '../../members/blocks.ts';

/** Notifications from a member blocked either way with their recipient are not counted or pushed. */
const fromVisibleActor = () =>
  noBlockBetween(sql.ref('notifications.recipient_id'), sql.ref('notifications.actor_id'));

export interface NewDevice {
  userId: string;
  sessionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  now: string;
}

/**
 * Stores a device, or hands an existing endpoint to this member and session with fresh keys.
 * Answers whether the row is new.
 */
export async function upsertSubscription(db: Db, device: NewDevice): Promise<boolean> {
  const owner = {
    user_id: device.userId,
    session_id: device.sessionId,
    p256dh: device.p256dh,
    auth: device.auth,
    updated_at: device.now,
  };
  for (;;) {
    const inserted = await db
      .insertInto('push_subscriptions')
      .values({ ...owner, endpoint: device.endpoint, created_at: device.now })
      .onConflict((conflict) => conflict.column('endpoint').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return true;
    const updated = await changedAny(
      db.updateTable('push_subscriptions').set(owner).where('endpoint', '=', device.endpoint),
    );
    // Deleted between the two statements: store it anew.
    if (updated) return false;
  }
}

/** Keeps a member's `keep` most recently registered devices and deletes the rest. */
export async function trimSubscriptions(db: Db, userId: string, keep: number): Promise<void> {
  const stale = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (stale.length === 0) return;
  await db
    .deleteFrom('push_subscriptions')
    .where(
      'id',
      'in',
      stale.map((row) => row.id),
    )
    .execute();
}

/** Deletes a device only when it belongs to this member; answers whether a row went. */
export function deleteOwnSubscription(db: Db, userId: string, endpoint: string): Promise<boolean> {
  return changedAny(
    db
      .deleteFrom('push_subscriptions')
      .where('endpoint', '=', endpoint)
      .where('user_id', '=', userId),
  );
}

/** Deletes a device whoever owns it (the push service said it is gone). */
export function deleteSubscription(db: Db, endpoint: string): Promise<boolean> {
  return changedAny(db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint));
}

/** Deletes every device of a member (a suspension); answers how many went. */
export function deleteSubscriptionsOf(db: Db, userId: string): Promise<number> {
  return rowsChanged(db.deleteFrom('push_subscriptions').where('user_id', '=', userId));
}

/** Every device of these members, oldest registration first. */
export async function subscriptionsOf(
  db: Db,
  userIds: readonly string[],
): Promise<PushSubscriptionRow[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('user_id', 'in', [...userIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

export async function writeSetting(db: Db, key: string, value: string, now: string) {
  await db
    .insertInto('server_settings')
    .values({ key, value, updated_at: now })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}

export type PushableRow = Pick<
  NotificationRow,
  'id' | 'recipient_id' | 'type' | 'request_id' | 'created_at'
> & { actor: Pick<UserRow, 'id' | 'username' | 'profile_image'> };

/** The notification types that become a push. */
const PUSHABLE_TYPES = ['friend_request', 'follow'] as const;

/**
 * Unread friend notifications with an id in (after, upTo], oldest first. Read ones are left out:
 * the member has seen them (or answered the request) already; so are those between members blocked
 * either way (a block removes them, and this holds for one written in the same moment).
 */
export async function unreadFriendNotifications(
  db: Db,
  after: number,
  upTo: number,
  limit: number,
): Promise<PushableRow[]> {
  const rows = await db
    .selectFrom('notifications')
    .innerJoin('users', 'users.id', 'notifications.actor_id')
    .select([
      'notifications.id',
      'notifications.recipient_id',
      'notifications.type',
      'notifications.request_id',
      'notifications.created_at',
      ...prefixedColumns('users', 'actor_', ['id', 'username', 'profile_image']),
    ])
    .where('notifications.id', '>', after)
    .where('notifications.id', '<=', upTo)
    .where('notifications.type', 'in', [...PUSHABLE_TYPES])
    .where('notifications.read_at', 'is', null)
    .where('notifications.request_id', 'is not', null)
    .where(fromVisibleActor())
    .orderBy('notifications.id')
    .limit(limit)
    .execute();
  return rows.map((row) => {
    const [notification, actor] = takePrefixed(row, 'actor_');
    return { ...notification, actor };
  });
}

export async function latestNotificationId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('id').as('latest'))
    .executeTakeFirst();
  return Number(row?.latest ?? 0);
}

/** Unread counts of several members at once (members with none are missing from the map). */
export async function unreadCounts(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('notifications')
    .select(['recipient_id', (eb) => eb.fn.countAll<number | string | bigint>().as('n')])
    .where('recipient_id', 'in', [...userIds])
    .where('read_at', 'is', null)
    .where(fromVisibleActor())
    .groupBy('recipient_id')
    .execute();
  return new Map(rows.map((row) => [row.recipient_id, Number(row.n)]));
}

/**
 * Now in milliseconds since the epoch by the database's clock: every server node asks the same
 * clock, so a node whose own clock is off cannot hand out a lease another relay still holds.
 */
function databaseNowMs(dialect: Dialect) {
  return dialect === 'postgres'
    ? sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`
    : sql<number>`cast(unixepoch('subsec') * 1000 as integer)`;
}

export interface LeaseState {
  cursor: number | null;
  /** JSON, as the last holder reported it. */
  progress: string;
  heldSince: string;
}

/**
 * Takes or renews a lease for `holder` in one statement: the update applies only when the holder
 * is the same or the lease has run out, so of two relays asking at once only one gets it. Answers
 * the stored state when granted, undefined when another holder has it.
 */
export async function takeLease(
  db: Db,
  dialect: Dialect,
  lease: { name: string; holder: string; ttlMs: number; now: string },
): Promise<LeaseState | undefined> {
  const now = databaseNowMs(dialect);
  const row = await db
    .insertInto('relay_lease')
    .values({
      name: lease.name,
      holder: lease.holder,
      expires_at: sql<number>`${now} + ${lease.ttlMs}`,
      held_since: lease.now,
      cursor: null,
    })
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet((eb) => ({
          holder: eb.ref('excluded.holder'),
          expires_at: eb.ref('excluded.expires_at'),
          // A renewal keeps the time its holder took the lease.
          held_since: sql<string>`case when relay_lease.holder = excluded.holder then relay_lease.held_since else excluded.held_since end`,
        }))
        .where((eb) =>
          eb.or([
            eb('relay_lease.holder', '=', eb.ref('excluded.holder')),
            eb('relay_lease.expires_at', '<=', now),
          ]),
        ),
    )
    .returning(['cursor', 'progress', 'held_since'])
    .executeTakeFirst();
  return row && { cursor: row.cursor, progress: row.progress, heldSince: row.held_since };
}

/** How long the lease has left by the database's clock (0 or less: it has run out). */
export async function leaseRemainingMs(
  db: Db,
  dialect: Dialect,
  name: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('relay_lease')
    .select(sql<number | string>`expires_at - ${databaseNowMs(dialect)}`.as('remaining'))
    .where('name', '=', name)
    .executeTakeFirst();
  return row && Number(row.remaining);
}

/** Stores the holder's progress; answers false, storing nothing, when `holder` does not hold it. */
export async function saveLeaseProgress(
  db: Db,
  report: { name: string; holder: string; cursor: number; progress: string },
): Promise<boolean> {
  return changedAny(
    db
      .updateTable('relay_lease')
      .set({ cursor: report.cursor, progress: report.progress })
      .where('name', '=', report.name)
      .where('holder', '=', report.holder),
  );
}
