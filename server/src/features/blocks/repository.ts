import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { BlockRow, FriendshipRow } from '../../db/schema.ts';

/**
 * Writes the block unless it exists already, keeping the blocked member's username as the blocker
 * could see it then: none when the member had blocked the blocker first (docs/decisions.md "The
 * block list names whom one blocked as one knew them"). Answers whether it wrote it; nothing is
 * written for a member who is gone.
 */
export async function insertBlock(
  db: Db,
  blockerId: string,
  blockedId: string,
  now: string,
): Promise<boolean> {
  const rows = await db
    .insertInto('blocks')
    .columns(['blocker_id', 'blocked_id', 'created_at', 'blocked_username'])
    .expression(
      db
        .selectFrom('users')
        .select((eb) => [
          eb.val(blockerId).as('blocker_id'),
          'users.id as blocked_id',
          eb.val(now).as('created_at'),
          sql<string | null>`case when not exists (select 1 from blocks as back
            where back.blocker_id = users.id and back.blocked_id = ${blockerId})
            then users.username end`.as('blocked_username'),
        ])
        .where('users.id', '=', blockedId),
    )
    .onConflict((conflict) => conflict.columns(['blocker_id', 'blocked_id']).doNothing())
    .returning('blocker_id')
    .execute();
  return rows.length > 0;
}

export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<void> {
  await db
    .deleteFrom('blocks')
    .where('blocker_id', '=', blockerId)
    .where('blocked_id', '=', blockedId)
    .execute();
}

/** Ends whatever relation the pair had (a friendship or a pending request); answers it. */
export async function deleteFriendship(
  db: Db,
  pairKey: string,
): Promise<Pick<FriendshipRow, 'requester_id' | 'status'> | undefined> {
  return db
    .deleteFrom('friendships')
    .where('pair_key', '=', pairKey)
    .returning(['requester_id', 'status'])
    .executeTakeFirst();
}

export type BlockedRow = Pick<BlockRow, 'blocked_id' | 'blocked_username' | 'created_at'>;

/** The members `blockerId` blocked, newest block first, at most `limit`, as the blocks keep them. */
export function blockedBy(db: Db, blockerId: string, limit: number): Promise<BlockedRow[]> {
  return db
    .selectFrom('blocks')
    .select(['blocked_id', 'blocked_username', 'created_at'])
    .where('blocker_id', '=', blockerId)
    .orderBy('created_at', 'desc')
    .orderBy('blocked_id')
    .limit(limit)
    .execute();
}

/** Whether a member with this id exists (whatever blocks there are). */
export async function memberExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
