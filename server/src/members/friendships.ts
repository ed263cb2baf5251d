import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { notHiddenFrom } from './blocks.ts';

/**
 * Friendships of one side joined to the member on the other side, to select from: `side` is the
 * column naming `userId`, and the other column names whom to show. Members blocked either way with
 * `viewerId` (the member asking) are left out in the same statement.
 */
export function friendshipsOfSide(
  db: Db,
  userId: string,
  side: 'requester_id' | 'addressee_id',
  status: 'pending' | 'accepted',
  viewerId: string,
) {
  const other = side === 'requester_id' ? 'friendships.addressee_id' : 'friendships.requester_id';
  return db
    .selectFrom('friendships')
    .innerJoin('users', 'users.id', other)
    .where(`friendships.${side}`, '=', userId)
    .where('friendships.status', '=', status)
    .where(notHiddenFrom(sql.ref('users.id'), viewerId));
}
