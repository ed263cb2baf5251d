import {
  type FriendCounts,
  type FriendListItem,
  type FriendStatus,
  type MemberSummary,
  pairKey,
} from '../../../../src/contracts/friends.ts';
import type { FriendEvent, FriendEventPayload } from '../../../../src/contracts/realtime.ts';
import type { Db } from '../../db/index.ts';
import type { FriendshipRow, UserRow } from '../../db/schema.ts';
import { Forbidden, Invalid, NotFound } from '../../errors.ts';
import type { MediaUrl } from '../../media/index.ts';
import {
  blockedBetween,
  lockPair,
  visibleMemberById,
  visibleMemberByUsername,
} from '../../members/blocks.ts';
import { fullNameOf, profileImageUrl } from '../../members/mapping.ts';
import {
  type NotificationDeps,
  type NotificationEvents,
  announceChange,
  drafts,
  record,
  requestNotifications,
} from '../notifications/service.ts';
import * as repo from './repository.ts';

export interface FriendDeps {
  db: Db;
  /** Tells both members' tabs what happened (`app.friendEvents` in the app, a recorder in tests). */
  publish: (event: FriendEvent, payload: FriendEventPayload) => void;
  notifications: NotificationEvents;
  mediaUrl: MediaUrl;
  now?: () => Date;
}

/** What to announce once the transaction that changed the pair has committed. */
type AfterCommit = (() => Promise<void> | void)[];

/**
 * Runs a change of a pair and its notifications in one transaction, then tells everyone. The pair
 * is locked first, as a block of the pair locks it (docs/decisions.md "Safety"), so a change and a
 * block made at once are one after the other.
 */
async function change<T>(
  deps: FriendDeps,
  key: string,
  work: (trx: Db, after: AfterCommit) => Promise<T>,
): Promise<T> {
  const after: AfterCommit = [];
  const result = await deps.db.transaction().execute(async (trx) => {
    await lockPair(trx, key);
    return work(trx, after);
  });
  for (const announce of after) await announce();
  return result;
}

const notifyDeps = (deps: FriendDeps): NotificationDeps => ({
  db: deps.db,
  events: deps.notifications,
  mediaUrl: deps.mediaUrl,
});

const FRIEND_MESSAGES = {
  self: 'Cannot friend yourself',
  unknown: 'No member matches that user id or username.',
  onlySenderCancels: 'Only the member who sent a request can cancel it.',
  onlyReceiverAccepts: 'Only the member who received a request can accept it.',
  onlyReceiverDeclines: 'Only the member who received a request can decline it.',
  alreadyFriends: 'You are already friends.',
  notFriends: 'You are not friends.',
  nothingToAccept: 'There is no friend request to accept.',
} as const;

export interface Target {
  userId?: string | undefined;
  username?: string | undefined;
}

const stamp = (deps: FriendDeps) => (deps.now ? deps.now() : new Date()).toISOString();

/** The other member of a friend call, by id first, then username; never oneself. */
async function resolveTarget(deps: FriendDeps, me: UserRow, target: Target): Promise<UserRow> {
  const other = await resolveOwner(deps, target, me.id);
  if (other.id === me.id) throw new Invalid(FRIEND_MESSAGES.self);
  return other;
}

/** A pair's status seen from `viewerId`, in the client's words. */
export function statusFor(
  viewerId: string,
  row: Pick<FriendshipRow, 'status' | 'requester_id'> | undefined,
): FriendStatus {
  if (!row) return 'none';
  if (row.status === 'accepted') return 'friends';
  return row.requester_id === viewerId ? 'pending' : 'incoming';
}

function emit(deps: FriendDeps, event: FriendEvent, from: string, to: string) {
  deps.publish(event, { fromUserId: from, toUserId: to, pairKey: pairKey(from, to) });
}

export async function getStatus(
  deps: FriendDeps,
  me: UserRow,
  target: Target,
): Promise<FriendStatus> {
  const other = await resolveOwner(deps, target, me.id);
  if (other.id === me.id) return 'self';
  return statusFor(me.id, await repo.findFriendship(deps.db, pairKey(me.id, other.id)));
}

/** Sends a request; a request to someone who already asked you accepts theirs. Repeats change nothing. */
export async function sendRequest(
  deps: FriendDeps,
  me: UserRow,
  target: Target,
): Promise<FriendStatus> {
  const other = await resolveTarget(deps, me, target);
  const key = pairKey(me.id, other.id);
  const now = stamp(deps);
  const sent = await change(deps, key, async (trx, after) => {
    // A block made since the member was looked up: they are absent now (docs/product.md "Blocking").
    if (await blockedBetween(trx, me.id, other.id)) throw new NotFound(FRIEND_MESSAGES.unknown);
    if (
      !(await repo.insertRequest(trx, {
        pairKey: key,
        requesterId: me.id,
        addresseeId: other.id,
        now,
      }))
    )
      return false;
    const announce = await record(trx, drafts.friendRequest(other.id, me, key), now);
    after.push(
      () => emit(deps, 'friend:request:created', me.id, other.id),
      () => announce(notifyDeps(deps)),
    );
    return true;
  });
  if (sent) return 'pending';
  // They asked first: asking back accepts their request.
  if (await acceptFrom(deps, me, other, key, now)) return 'friends';
  return statusFor(me.id, await repo.findFriendship(deps.db, key));
}

/** Accepts `other`'s pending request to `me`: the pair becomes friends and `other` hears of it. */
async function acceptFrom(
  deps: FriendDeps,
  me: UserRow,
  other: UserRow,
  key: string,
  now: string,
): Promise<boolean> {
  return change(deps, key, async (trx, after) => {
    if (!(await repo.acceptPending(trx, key, other.id, now))) return false;
    const announce = await record(trx, drafts.accepted(other.id, me, key), now);
    const read = await requestNotifications.answered(trx, me.id, key, now);
    after.push(
      () => emit(deps, 'friend:accepted', me.id, other.id),
      () => announce(notifyDeps(deps)),
      () => announceChange(notifyDeps(deps), me.id, { read }),
    );
    return true;
  });
}

/** Deletes a pending request sent by `requesterId`, and the receiver's notification of it. */
async function dropRequest(
  deps: FriendDeps,
  key: string,
  requesterId: string,
  receiverId: string,
): Promise<boolean> {
  return change(deps, key, async (trx, after) => {
    if (!(await repo.deletePending(trx, key, requesterId))) return false;
    const removed = await requestNotifications.withdrawn(trx, receiverId, key);
    after.push(() => announceChange(notifyDeps(deps), receiverId, { removed }));
    return true;
  });
}

type Refusals = Partial<Record<FriendStatus, () => Error>>;

/**
 * A friend call between `me` and the member `target` names: `apply` makes the change and says the
 * status it leaves, or null when the pair was not in the state it needs. Then the pair's status
 * answers, unless `refusals` names that status as one the call refuses.
 */
function transition(
  apply: (
    deps: FriendDeps,
    me: UserRow,
    key: string,
    other: UserRow,
  ) => Promise<FriendStatus | null>,
  refusals: Refusals,
) {
  return async (deps: FriendDeps, me: UserRow, target: Target): Promise<FriendStatus> => {
    const other = await resolveTarget(deps, me, target);
    const key = pairKey(me.id, other.id);
    const done = await apply(deps, me, key, other);
    if (done) return done;
    const status = statusFor(me.id, await repo.findFriendship(deps.db, key));
    const refusal = refusals[status];
    if (refusal) throw refusal();
    return status;
  };
}

/** A change that ends what is between the two: when `drop` removed it, `event` goes out and the answer is none. */
const ending =
  (
    event: FriendEvent,
    drop: (deps: FriendDeps, key: string, me: UserRow, other: UserRow) => Promise<boolean>,
  ) =>
  async (deps: FriendDeps, me: UserRow, key: string, other: UserRow) => {
    if (!(await drop(deps, key, me, other))) return null;
    emit(deps, event, me.id, other.id);
    return 'none' as const;
  };

const refuse = (Failure: typeof Forbidden | typeof NotFound, message: string) => () =>
  new Failure(message);

export const cancelRequest = transition(
  ending('friend:request:canceled', (deps, key, me, other) =>
    dropRequest(deps, key, me.id, other.id),
  ),
  {
    incoming: refuse(Forbidden, FRIEND_MESSAGES.onlySenderCancels),
    friends: refuse(Forbidden, FRIEND_MESSAGES.alreadyFriends),
  },
);

export const acceptRequest = transition(
  async (deps, me, key, other) =>
    (await acceptFrom(deps, me, other, key, stamp(deps))) ? 'friends' : null,
  {
    pending: refuse(Forbidden, FRIEND_MESSAGES.onlyReceiverAccepts),
    none: refuse(NotFound, FRIEND_MESSAGES.nothingToAccept),
  },
);

export const declineRequest = transition(
  ending('friend:declined', (deps, key, me, other) => dropRequest(deps, key, other.id, me.id)),
  {
    pending: refuse(Forbidden, FRIEND_MESSAGES.onlyReceiverDeclines),
    friends: refuse(Forbidden, FRIEND_MESSAGES.alreadyFriends),
  },
);

const notFriends = refuse(Forbidden, FRIEND_MESSAGES.notFriends);

export const unfriend = transition(
  ending('friend:removed', (deps, key) => repo.deleteAccepted(deps.db, key)),
  { pending: notFriends, incoming: notFriends, friends: notFriends },
);

export function memberSummary(
  row: Pick<UserRow, 'id' | 'username' | 'first_name' | 'last_name' | 'profile_image'>,
  mediaUrl: MediaUrl,
): MemberSummary {
  return {
    id: row.id,
    username: row.username,
    fullName: fullNameOf(row),
    profileImage: profileImageUrl(row, mediaUrl),
  };
}

function listItem(
  { friendship, user }: repo.FriendshipWithUser,
  mediaUrl: MediaUrl,
): FriendListItem {
  return {
    requestId: friendship.pair_key,
    user: memberSummary(user, mediaUrl),
    fromUserId: friendship.requester_id,
    toUserId: friendship.addressee_id,
    createdAt: friendship.status === 'accepted' ? friendship.updated_at : friendship.created_at,
  };
}

export async function incoming(deps: FriendDeps, me: UserRow): Promise<FriendListItem[]> {
  return (await repo.incomingRequests(deps.db, me.id)).map((item) => listItem(item, deps.mediaUrl));
}

export async function outgoing(deps: FriendDeps, me: UserRow): Promise<FriendListItem[]> {
  return (await repo.outgoingRequests(deps.db, me.id)).map((item) => listItem(item, deps.mediaUrl));
}

/** `userId`'s friends as `viewerId` sees them: members blocked either way with the viewer left out. */
export async function friends(
  deps: FriendDeps,
  userId: string,
  viewerId: string,
): Promise<FriendListItem[]> {
  return (await repo.friendsOf(deps.db, userId, viewerId)).map((item) =>
    listItem(item, deps.mediaUrl),
  );
}

export function counts(deps: FriendDeps, me: UserRow): Promise<FriendCounts> {
  return repo.countFriendships(deps.db, me.id);
}

/**
 * Whose friends to list: a member named by id or username (oneself included), as `viewerId` may
 * see them. A member blocked either way is not found, exactly as one who does not exist.
 */
export async function resolveOwner(
  deps: FriendDeps,
  target: Target,
  viewerId: string,
): Promise<UserRow> {
  const owner =
    (target.userId ? await visibleMemberById(deps.db, viewerId, target.userId) : undefined) ??
    (target.username
      ? await visibleMemberByUsername(deps.db, viewerId, target.username)
      : undefined);
  if (!owner) throw new NotFound(FRIEND_MESSAGES.unknown);
  return owner;
}
