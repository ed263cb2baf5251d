/**
 * Blocks as every feature reads them (docs/product.md "Blocking", docs/decisions.md "Safety"):
 * while a block exists in either direction, two members are absent to each other. The blocks
 * table has one row per direction, keyed (blocker_id, blocked_id); every check here probes that
 * key, once per direction, so it costs two index lookups whatever the table holds.
 *
 * Lists never post-filter: each query that lists members (search, friends, notifications) says
 * `noBlockBetween` inside its own statement.
 */
import { type Expression, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { usernameKey } from './keys.ts';

type Id = string | Expression<string>;

const value = (id: Id) => (typeof id === 'string' ? sql.val(id) : id);

/**
 * True when no block exists between `a` and `b`, in either direction: two NOT EXISTS, each a
 * primary-key probe of `blocks`. Either side may be a column (`sql.ref('users.id')`) or an id.
 */
export function noBlockBetween(a: Id, b: Id): RawBuilder<SqlBool> {
  const [x, y] = [value(a), value(b)];
  return sql<SqlBool>`(not exists (select 1 from blocks where blocks.blocker_id = ${x} and blocks.blocked_id = ${y})
    and not exists (select 1 from blocks where blocks.blocker_id = ${y} and blocks.blocked_id = ${x}))`;
}

/**
 * The ids of every member blocked either way with `viewerId`, as a subquery: found by two index
 * ranges (the primary key's `blocker_id` prefix, and `blocks_blocked`), read once per statement
 * whatever the number of rows it is compared with.
 */
export function hiddenFrom(viewerId: string): RawBuilder<string> {
  return sql<string>`(select blocks.blocked_id from blocks where blocks.blocker_id = ${viewerId}
    union all select blocks.blocker_id from blocks where blocks.blocked_id = ${viewerId})`;
}

/**
 * True when the member in `column` (never null) is not blocked either way with `viewerId`: for
 * statements that list members for one viewer (search, friends lists, notifications). Not a
 * correlated probe per row but one set per statement (`NOT IN` an uncorrelated subquery:
 * PostgreSQL hashes it, SQLite builds an ephemeral index), so it adds one node to the plan rather
 * than two joins, and next to nothing to build.
 */
export function notHiddenFrom(column: Expression<string>, viewerId: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} not in ${hiddenFrom(viewerId)}`;
}

/**
 * The member id in `column` as `viewerId` may read it: null when that member and the viewer are
 * blocked either way. For rows that still count but must not name a hidden member (the reactions
 * of an image: docs/decisions.md "Reactions under a block"). The same one set per statement as
 * notHiddenFrom, in the select list instead of the filter.
 */
export function idVisibleTo(
  column: Expression<string>,
  viewerId: string,
): RawBuilder<string | null> {
  return sql<
    string | null
  >`case when ${column} in ${hiddenFrom(viewerId)} then null else ${column} end`;
}

/**
 * `notHiddenFrom` for a column that may be null (a notification without an actor, a member whose
 * account is gone): null passes, since it names nobody.
 */
export function noneOrNotHiddenFrom(
  column: Expression<string | null>,
  viewerId: string,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${column} is null or ${column} not in ${hiddenFrom(viewerId)})`;
}

/** Whether a block exists between the two, either way: one statement, one primary-key probe each way. */
export async function blockedBetween(db: Db, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  const row = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
        eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A member as `viewerId` may see them: undefined when absent or blocked either way. */
function visibleMember(
  db: Db,
  viewerId: string,
  column: 'id' | 'username_key',
  value: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(column, '=', value)
    .where(noBlockBetween(sql.ref('users.id'), viewerId))
    .executeTakeFirst();
}

export const visibleMemberById = (db: Db, viewerId: string, id: string) =>
  visibleMember(db, viewerId, 'id', id);

export const visibleMemberByUsername = (db: Db, viewerId: string, username: string) =>
  visibleMember(db, viewerId, 'username_key', usernameKey(username));

/**
 * Serialises changes of one pair of members inside a transaction: a block and a friend request
 * made at the same moment cannot both commit unseen by the other (PostgreSQL: a transaction-scoped
 * advisory lock on the pair key). SQLite needs none: the app's one connection runs one
 * transaction at a time.
 */
export async function lockPair(trx: Db, pairKey: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(hashtext(${pairKey}))`.execute(trx);
}
