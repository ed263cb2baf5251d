import type { Readable } from 'node:stream';
import { pairKey } from '../../../../src/contracts/friends.ts';
import type { FriendEvent, FriendEventPayload } from '../../../../src/contracts/realtime.ts';
import {
  DELETE_USERNAME_MISMATCH,
  EXPORT_INTERVAL_MS,
  EXPORT_TOO_SOON,
} from '../../../../src/contracts/safety.ts';
import type { UserRow } from '../../db/schema.ts';
import { Invalid, TooManyRequests, Unauthorized } from '../../errors.ts';
import { zipStream } from '../../lib/zipStream.ts';
import { type AttemptKind, POLICIES, memberAccount } from '../auth/attempts.ts';
import { type GuardedDeps, confirmCurrentPassword } from '../auth/service.ts';
import { usernameKey } from '../../members/keys.ts';
import type { Authenticated } from '../../members/sessions.ts';
import { type NotificationEvents, announceChange } from '../notifications/service.ts';
import { downloadEntries } from './download.ts';
import * as repo from './repository.ts';

/** Where a service writes what went wrong after the member's answer was already decided. */
interface AccountLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface AccountDeps extends Omit<GuardedDeps, 'notifications'> {
  /** Friend events, to both members' tabs on every node. */
  publish: (event: FriendEvent, payload: FriendEventPayload) => void;
  notifications: NotificationEvents;
  /** Ends every socket of these members, on every node. */
  disconnectMembers: (userIds: readonly string[]) => void;
  /** Tells every push relay that these members are gone. */
  relayMembersGone: (userIds: readonly string[]) => void;
  log: AccountLog;
}

/** Pictures handed to one removal: a bucket takes 1,000 keys a request, a disk one call each. */
const PICTURES_PER_REMOVAL = 500;

const clock = (deps: { now?: () => Date }) => (deps.now ? deps.now() : new Date());

/** What the other member of an ended friendship or request hears. */
function endedEvent(relation: repo.EndedRelation): FriendEvent {
  if (relation.status === 'accepted') return 'friend:removed';
  return relation.sentByMember ? 'friend:request:canceled' : 'friend:declined';
}

/**
 * docs/product.md "Leaving": the member confirms with their username and password, then the
 * account and everything keyed to it goes in one transaction. What others see follows once it
 * committed; the pictures are removed last, and any that cannot be are left to the sweep
 * (docs/decisions.md "Leaving: delete and export").
 */
export async function deleteAccount(
  deps: AccountDeps,
  auth: Authenticated,
  confirm: { password: string; username: string },
): Promise<void> {
  const user = auth.user;
  if (usernameKey(confirm.username) !== user.username_key)
    throw new Invalid(DELETE_USERNAME_MISMATCH);
  // Counted like every other current-password guess (docs/decisions.md "Passwords and abuse").
  await confirmCurrentPassword(deps, user, confirm.password);

  const removed = await deps.db
    .transaction()
    .execute((trx) => repo.deleteAccountRows(trx, user.id));
  // Another request deleted it a moment ago: this session is gone with it.
  if (!removed) throw new Unauthorized();
  await afterDeletion(deps, user.id, removed);
}

/** Everything that follows a committed deletion; none of it can undo or fail the deletion. */
async function afterDeletion(deps: AccountDeps, userId: string, removed: repo.RemovedAccount) {
  // No node serves a remembered session of theirs from here on, and no socket of theirs stays.
  await deps.sessionMemory?.membersChanged([userId]);
  deps.disconnectMembers([userId]);
  deps.relayMembersGone([userId]);

  for (const relation of removed.relations) {
    deps.publish(endedEvent(relation), {
      fromUserId: userId,
      toUserId: relation.otherId,
      pairKey: pairKey(userId, relation.otherId),
    });
  }
  const notify = { db: deps.db, events: deps.notifications, mediaUrl: deps.media.url };
  for (const [recipientId, ids] of removed.othersNotifications) {
    await announceChange(notify, recipientId, { removed: ids }).catch((error: unknown) =>
      deps.log.warn({ err: error, recipientId }, 'could not announce removed notifications'),
    );
  }
  await Promise.all(
    (Object.keys(POLICIES) as AttemptKind[]).map((kind) =>
      deps.attempts.forget(kind, memberAccount(userId)),
    ),
  ).catch((error: unknown) =>
    deps.log.warn({ err: error }, 'could not forget a deleted member’s attempt counts'),
  );
  for (let start = 0; start < removed.pictures.length; start += PICTURES_PER_REMOVAL)
    await deps.media.discard(removed.pictures.slice(start, start + PICTURES_PER_REMOVAL));
}

export interface Download {
  fileName: string;
  stream: Readable;
}

/**
 * A download whose reader takes nothing of what is ready for this long is given up, so a client
 * that stops reading without leaving holds no picture open (nginx's own send_timeout is as long).
 */
const DOWNLOAD_IDLE_MS = 60_000;

/** The name of a member's download: `orbit-{username}.zip`. */
const downloadName = (username: string) => `orbit-${username}.zip`;

/**
 * docs/product.md "Leaving": the member's data as a zip, built as it is sent. One per
 * EXPORT_INTERVAL_MS per member, counted in the database so every node agrees; the turn is taken
 * when the download starts, and given back when the server fails it.
 */
export async function startDownload(
  deps: Pick<AccountDeps, 'db' | 'media' | 'now' | 'log'>,
  user: UserRow,
): Promise<Download> {
  const started = clock(deps);
  const now = started.toISOString();
  const previous = await repo.lastExportAt(deps.db, user.id);
  if (previous === undefined) throw new Unauthorized();
  const since = new Date(started.getTime() - EXPORT_INTERVAL_MS).toISOString();
  if (!(await repo.stampExport(deps.db, user.id, now, since))) {
    const last = Date.parse((await repo.lastExportAt(deps.db, user.id)) ?? now);
    const leftMs = Math.min(last + EXPORT_INTERVAL_MS - started.getTime(), EXPORT_INTERVAL_MS);
    throw new TooManyRequests(EXPORT_TOO_SOON, Math.max(1, Math.ceil(leftMs / 1000)));
  }
  const stream = zipStream(downloadEntries(deps, user.id, started), {
    onFailure(error) {
      deps.log.error(
        { err: error, userId: user.id },
        'a download of member data failed; the member got a broken file',
      );
      repo
        .restoreExportStamp(deps.db, user.id, now, previous)
        .catch((cause: unknown) =>
          deps.log.warn({ err: cause }, 'could not give a failed download its turn back'),
        );
    },
    onAbort(reason) {
      deps.log.info(
        { userId: user.id },
        reason === 'client'
          ? 'a download of member data was stopped by the client'
          : 'a download of member data was given up: the client took nothing for a minute',
      );
    },
    idleMs: DOWNLOAD_IDLE_MS,
  });
  return { fileName: downloadName(user.username), stream };
}
