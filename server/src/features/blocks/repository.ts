import type { Db } from '../../db/index.ts';
import type { FriendshipRow, UserRow } from '../../db/schema.ts';

/** Writes the block unless it exists already; answers whether it wrote it. */
export async function insertBlock(
  db: Db,
  blockerId: string,
  blockedId: string,
  now: string,
): Promise<boolean> {
  const rows = await db
    .insertInto('blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: now })
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

export type BlockedRow = Pick<UserRow, 'id' | 'username' | 'profile_image'> & {
  blocked_at: string;
};

/** The members `blockerId` blocked, newest block first, at most `limit`. */
export function blockedBy(db: Db, blockerId: string, limit: number): Promise<BlockedRow[]> {
  return db
    .selectFrom('blocks')
    .innerJoin('users', 'users.id', 'blocks.blocked_id')
    .select([
      'users.id',
      'users.username',
      'users.profile_image',
      'blocks.created_at as blocked_at',
    ])
    .where('blocks.blocker_id', '=', blockerId)
    .orderBy('blocks.created_at', 'desc')
    .orderBy('users.id')
    .limit(limit)
    .execute();
}

/** Whether a member with this id exists (whatever blocks there are). */
export async function memberExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
