import { pairKey } from '../../../../src/contracts/friends.ts';
import type { FriendEvent, FriendEventPayload } from '../../../../src/contracts/realtime.ts';
import {
  BLOCK_LIST_MAX,
  BLOCK_SELF,
  type BlockedMember,
  NO_SUCH_MEMBER,
} from '../../../../src/contracts/safety.ts';
import type { Db } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { Invalid, NotFound } from '../../errors.ts';
import type { MediaUrl } from '../../media/index.ts';
import { lockPair } from '../../members/blocks.ts';
import {
  type NotificationEvents,
  announceChange,
  requestNotifications,
} from '../notifications/service.ts';
import * as repo from './repository.ts';

export interface BlockDeps {
  db: Db;
  mediaUrl: MediaUrl;
  notifications: NotificationEvents;
  /** A friend event to one member's own tabs only (`app.friendEvents` in the app). */
  tellMember: (userId: string, event: FriendEvent, payload: FriendEventPayload) => void;
  /** Each member's sockets leave the other's gallery and image rooms, on every node. */
  separate: (a: string, b: string) => void;
  /**
   * Every push relay drops the pushes between the two it has not delivered yet, for events up to
   * `upTo` at least (the newest notification between them the block removed, 0 for none).
   */
  relayPairBlocked: (a: string, b: string, upTo: number) => void;
  now?: () => Date;
}

const stamp = (deps: BlockDeps) => (deps.now ? deps.now() : new Date()).toISOString();

/** The friend event that tells the blocker's tabs what the block ended (docs/decisions.md "Safety"). */
function endedEvent(
  blockerId: string,
  ended: { requester_id: string; status: 'pending' | 'accepted' } | undefined,
): FriendEvent {
  if (ended?.status === 'pending')
    return ended.requester_id === blockerId ? 'friend:request:canceled' : 'friend:declined';
  return 'friend:removed';
}

/**
 * `me` blocks the member `userId` names (docs/product.md "Blocking"). In one transaction, with the
 * pair locked as friend calls lock it: the block, the end of any friendship or pending request,
 * and the friend request and acceptance notifications between them, both ways. Then the live
 * side: each member's sockets leave the other's rooms on every node, the push relays drop pushes
 * between them still under way, and only the blocker's tabs hear a friend event and the change of
 * their notifications; the blocked member is told nothing.
 * Blocking again changes nothing.
 */
export async function block(deps: BlockDeps, me: UserRow, userId: string): Promise<void> {
  if (userId === me.id) throw new Invalid(BLOCK_SELF);
  if (!(await repo.memberExists(deps.db, userId))) throw new NotFound(NO_SUCH_MEMBER);
  const key = pairKey(me.id, userId);
  const now = stamp(deps);
  const { inserted, ended, removed } = await deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, key);
    return {
      inserted: await repo.insertBlock(trx, me.id, userId, now),
      ended: await repo.deleteFriendship(trx, key),
      removed: await requestNotifications.blocked(trx, [me.id, userId], key),
    };
  });
  deps.separate(me.id, userId);
  if (inserted) deps.relayPairBlocked(me.id, userId, Math.max(0, ...removed.map((row) => row.id)));
  if (inserted || ended) {
    deps.tellMember(me.id, endedEvent(me.id, ended), {
      fromUserId: me.id,
      toUserId: userId,
      pairKey: key,
    });
  }
  await announceChange(
    { db: deps.db, events: deps.notifications, mediaUrl: deps.mediaUrl },
    me.id,
    {
      removed: removed.filter((row) => row.recipient_id === me.id).map((row) => row.id),
    },
  );
}

/** Lifts `me`'s block of `userId`, if there is one; nothing the block ended comes back. */
export async function unblock(deps: BlockDeps, me: UserRow, userId: string): Promise<void> {
  await repo.deleteBlock(deps.db, me.id, userId);
}

/**
 * The members `me` blocked, newest block first (Settings → Blocked members), each by the name the
 * block kept: never their name or picture now, which the block hides from `me` as everything else
 * of theirs (docs/decisions.md "The block list names whom one blocked as one knew them").
 */
export async function blocked(deps: BlockDeps, me: UserRow): Promise<BlockedMember[]> {
  const rows = await repo.blockedBy(deps.db, me.id, BLOCK_LIST_MAX);
  return rows.map((row) => ({
    id: row.blocked_id,
    username: row.blocked_username,
    blockedAt: row.created_at,
  }));
}
