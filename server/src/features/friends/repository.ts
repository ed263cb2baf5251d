import { changedAny } from '../../db/changes.ts';
import type { Db } from '../../db/index.ts';
import { prefixedColumns, takePrefixed } from '../../db/joined.ts';
import type { FriendshipRow, UserRow } from '../../db/schema.ts';
import { friendshipsOfSide } from '../../members/friendships.ts';

export function findFriendship(db: Db, pairKey: string): Promise<FriendshipRow | undefined> {
  return db
    .selectFrom('friendships')
    .selectAll()
    .where('pair_key', '=', pairKey)
    .executeTakeFirst();
}

/** Inserts a pending request unless the pair already has a row; answers whether it inserted. */
export async function insertRequest(
  db: Db,
  row: { pairKey: string; requesterId: string; addresseeId: string; now: string },
): Promise<boolean> {
  const result = await db
    .insertInto('friendships')
    .values({
      pair_key: row.pairKey,
      requester_id: row.requesterId,
      addressee_id: row.addresseeId,
      status: 'pending',
      created_at: row.now,
      updated_at: row.now,
    })
    .onConflict((conflict) => conflict.column('pair_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Turns a pending request sent by `requesterId` into a friendship; answers whether it did. */
export function acceptPending(
  db: Db,
  pairKey: string,
  requesterId: string,
  now: string,
): Promise<boolean> {
  return changedAny(
    db
      .updateTable('friendships')
      .set({ status: 'accepted', updated_at: now })
      .where('pair_key', '=', pairKey)
      .where('status', '=', 'pending')
      .where('requester_id', '=', requesterId),
  );
}

/** Deletes a pending request sent by `requesterId`; answers whether it did. */
export function deletePending(db: Db, pairKey: string, requesterId: string): Promise<boolean> {
  return changedAny(
    db
      .deleteFrom('friendships')
      .where('pair_key', '=', pairKey)
      .where('status', '=', 'pending')
      .where('requester_id', '=', requesterId),
  );
}

export function deleteAccepted(db: Db, pairKey: string): Promise<boolean> {
  return changedAny(
    db.deleteFrom('friendships').where('pair_key', '=', pairKey).where('status', '=', 'accepted'),
  );
}

export interface FriendshipWithUser {
  friendship: FriendshipRow;
  user: UserRow;
}

const LIST_LIMIT = 500;

const FRIENDSHIP_COLUMNS = [
  'pair_key',
  'requester_id',
  'addressee_id',
  'status',
  'created_at',
  'updated_at',
] as const;

/** Friendships of one side with the member on the other side, as friendshipsOfSide finds them. */
async function listSide(
  db: Db,
  userId: string,
  side: 'requester_id' | 'addressee_id',
  status: 'pending' | 'accepted',
  viewerId: string,
): Promise<FriendshipWithUser[]> {
  const rows = await friendshipsOfSide(db, userId, side, status, viewerId)
    .selectAll('users')
    .select(prefixedColumns('friendships', 'friendship_', FRIENDSHIP_COLUMNS))
    .orderBy('friendships.updated_at', 'desc')
    .limit(LIST_LIMIT)
    .execute();
  return rows.map((row) => {
    const [user, friendship] = takePrefixed(row, 'friendship_');
    return { friendship, user };
  });
}

/** Pending requests sent to a member, newest first, each with its sender. */
export function incomingRequests(db: Db, userId: string): Promise<FriendshipWithUser[]> {
  return listSide(db, userId, 'addressee_id', 'pending', userId);
}

/** Pending requests a member sent, newest first, each with its receiver. */
export function outgoingRequests(db: Db, userId: string): Promise<FriendshipWithUser[]> {
  return listSide(db, userId, 'requester_id', 'pending', userId);
}

/** A member's friends as `viewerId` sees them, most recent friendship first, each with the other member. */
export async function friendsOf(
  db: Db,
  userId: string,
  viewerId: string,
): Promise<FriendshipWithUser[]> {
  const [asked, answered] = await Promise.all([
    listSide(db, userId, 'requester_id', 'accepted', viewerId),
    listSide(db, userId, 'addressee_id', 'accepted', viewerId),
  ]);
  return [...asked, ...answered]
    .sort((a, b) => b.friendship.updated_at.localeCompare(a.friendship.updated_at))
    .slice(0, LIST_LIMIT);
}

export async function countFriendships(db: Db, userId: string) {
  const count = (query: ReturnType<typeof base>) =>
    query
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirstOrThrow();
  const base = () => db.selectFrom('friendships');
  const [incoming, outgoing, friends] = await Promise.all([
    count(base().where('addressee_id', '=', userId).where('status', '=', 'pending')),
    count(base().where('requester_id', '=', userId).where('status', '=', 'pending')),
    count(
      base()
        .where('status', '=', 'accepted')
        .where((eb) => eb.or([eb('requester_id', '=', userId), eb('addressee_id', '=', userId)])),
    ),
  ]);
  return { incoming: Number(incoming.n), outgoing: Number(outgoing.n), friends: Number(friends.n) };
}
