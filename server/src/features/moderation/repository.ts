import { PostgresAdapter, sql } from 'kysely';
import { notHiddenFrom } from '../../members/blocks.ts';
import type { Db } from '../../db/index.ts';
import type { ReportKind, ReportResolution, ReportRow, UserRow } from '../../db/schema.ts';

export interface NewReport {
  reporterId: string;
  kind: ReportKind;
  targetId: string;
  targetUserId: string;
  reason: string;
  note: string;
  now: string;
}

/** Writes an open report; the partial unique index refuses a second open one of the same item. */
export async function insertReport(db: Db, report: NewReport): Promise<void> {
  await db
    .insertInto('reports')
    .values({
      reporter_id: report.reporterId,
      target_kind: report.kind,
      target_id: report.targetId,
      target_user_id: report.targetUserId,
      reason: report.reason,
      note: report.note,
      status: 'open',
      created_at: report.now,
    })
    .execute();
}

/** The member's open reports, newest first: what they reported, not yet decided. */
/** The reporter's open reports, less those about a member blocked either way with them. */
export function openReportsBy(db: Db, reporterId: string, limit: number) {
  return db
    .selectFrom('reports')
    .select(['target_kind', 'target_id'])
    .where('reporter_id', '=', reporterId)
    .where('status', '=', 'open')
    .where(notHiddenFrom(sql.ref('target_user_id'), reporterId))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Reports with whom and what they name, in one statement: the reporter, the member reported (or
 * the photo's owner), the photo while it exists and the moderator who resolved it; a member whose
 * account is gone comes back as nulls.
 */
const withParties = (db: Db) =>
  db
    .selectFrom('reports')
    .leftJoin('users as reporter', 'reporter.id', 'reports.reporter_id')
    .leftJoin('users as member', 'member.id', 'reports.target_user_id')
    .leftJoin('gallery_images as image', (join) =>
      join.onRef('image.id', '=', 'reports.target_id').on('reports.target_kind', '=', 'image'),
    )
    .leftJoin('users as resolver', 'resolver.id', 'reports.resolved_by')
    .selectAll('reports')
    .select([
      'reporter.username as reporter_username',
      'reporter.profile_image as reporter_profile_image',
      'member.username as member_username',
      'member.profile_image as member_profile_image',
      'image.id as image_id',
      'image.display_file as image_display_file',
      'image.thumb_file as image_thumb_file',
      'image.caption as image_caption',
      'resolver.username as resolver_username',
      'resolver.profile_image as resolver_profile_image',
    ]);

export type ReportWithParties = Awaited<
  ReturnType<ReturnType<typeof withParties>['executeTakeFirstOrThrow']>
>;

/** Open reports, newest first, older than report `before` when given (the (status, id) index). */
export function openPage(
  db: Db,
  before: number | undefined,
  limit: number,
): Promise<ReportWithParties[]> {
  let query = withParties(db).where('reports.status', '=', 'open');
  if (before !== undefined) query = query.where('reports.id', '<', before);
  return query.orderBy('reports.id', 'desc').limit(limit).execute();
}

/**
 * Resolved reports, latest resolved first, after the report (`at`, `id`) when given (the
 * (status, resolved_at, id) index).
 */
export function resolvedPage(
  db: Db,
  before: { at: string; id: number } | undefined,
  limit: number,
): Promise<ReportWithParties[]> {
  let query = withParties(db).where('reports.status', '=', 'resolved');
  if (before)
    query = query.where((eb) =>
      eb.or([
        eb('reports.resolved_at', '<', before.at),
        eb.and([eb('reports.resolved_at', '=', before.at), eb('reports.id', '<', before.id)]),
      ]),
    );
  return query
    .orderBy('reports.resolved_at', 'desc')
    .orderBy('reports.id', 'desc')
    .limit(limit)
    .execute();
}

export function reportWithParties(db: Db, id: number): Promise<ReportWithParties | undefined> {
  return withParties(db).where('reports.id', '=', id).executeTakeFirst();
}

export function findReport(db: Db, id: number): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface Resolution {
  resolution: ReportResolution;
  moderatorId: string;
  now: string;
}

/**
 * Resolves the open reports `which` names (one report, every one of a photo, or every one about a
 * member); answers the ids it resolved. A report resolved meanwhile is left as it is.
 */
export async function resolveOpen(
  db: Db,
  which: { id: number } | { imageId: string } | { memberId: string },
  how: Resolution,
): Promise<number[]> {
  let query = db
    .updateTable('reports')
    .set({
      status: 'resolved',
      resolution: how.resolution,
      resolved_by: how.moderatorId,
      resolved_at: how.now,
    })
    .where('status', '=', 'open');
  if ('id' in which) query = query.where('id', '=', which.id);
  else if ('imageId' in which)
    query = query.where('target_kind', '=', 'image').where('target_id', '=', which.imageId);
  else query = query.where('target_user_id', '=', which.memberId);
  const rows = await query.returning('id').execute();
  return rows.map((row) => row.id);
}

/**
 * Opens a dismissed report again (undoing `Dismiss`); answers whether it was dismissed. The partial
 * unique index refuses it when the reporter has an open report of the same item by now.
 */
export async function reopenDismissed(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .updateTable('reports')
    .set({ status: 'open', resolution: null, resolved_by: null, resolved_at: null })
    .where('id', '=', id)
    .where('status', '=', 'resolved')
    .where('resolution', '=', 'dismissed')
    .returning('id')
    .execute();
  return rows.length > 0;
}

/** Suspended members, latest suspended first, at most `limit`, read through their index (users_suspended). */
export function suspendedMembersQuery(db: Db, limit: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'profile_image', 'suspension_reason', 'suspended_at'])
    .where('suspended_at', 'is not', null)
    .orderBy('suspended_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

export function suspendedMembers(db: Db, limit: number) {
  return suspendedMembersQuery(db, limit).execute();
}

/** Whether the member is a moderator now, read from the database (not the session's copy). */
export async function isModerator(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('is_moderator')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.is_moderator === 1;
}

export type Standing = Pick<UserRow, 'id' | 'is_moderator' | 'suspended_at'>;

/**
 * Whether each of these members moderates and is suspended, as it stands inside the transaction
 * `trx` (a suspension's: docs/decisions.md "Moderators and what they do"). On PostgreSQL their rows
 * stay locked until it ends (`FOR NO KEY UPDATE`, as the gallery's owner lock: sessions and other
 * rows that merely refer to them are not held up), so `npm run moderator` and another suspension of
 * either member wait for it; the rows are locked in id order, so two suspensions naming the same
 * two members wait for each other and never deadlock. SQLite needs no lock: the app has one
 * connection, and Kysely hands it to one transaction at a time.
 */
export function standingOf(trx: Db, userIds: readonly string[]): Promise<Standing[]> {
  const query = trx
    .selectFrom('users')
    .select(['id', 'is_moderator', 'suspended_at'])
    .where('id', 'in', userIds)
    .orderBy('id');
  return (
    trx.getExecutor().adapter instanceof PostgresAdapter ? query.forNoKeyUpdate() : query
  ).execute();
}

export async function suspendMember(
  db: Db,
  userId: string,
  reason: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ suspended_at: now, suspension_reason: reason, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Lifts the member's suspension; answers whether they were suspended. */
export async function unsuspendMember(db: Db, userId: string, now: string): Promise<boolean> {
  const rows = await db
    .updateTable('users')
    .set({ suspended_at: null, suspension_reason: '', updated_at: now })
    .where('id', '=', userId)
    .where('suspended_at', 'is not', null)
    .returning('id')
    .execute();
  return rows.length > 0;
}

export async function setModerator(db: Db, userId: string, on: boolean, now: string) {
  await db
    .updateTable('users')
    .set({ is_moderator: on ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

export type MemberLine = Pick<
  UserRow,
  'username' | 'email' | 'is_moderator' | 'suspended_at' | 'suspension_reason'
>;

/** Moderators and suspended members, by username (`npm run moderator -- list`). */
export function moderatorsAndSuspended(db: Db): Promise<MemberLine[]> {
  return db
    .selectFrom('users')
    .select(['username', 'email', 'is_moderator', 'suspended_at', 'suspension_reason'])
    .where((eb) => eb.or([eb('is_moderator', '=', 1), eb('suspended_at', 'is not', null)]))
    .orderBy('username_key')
    .execute();
}
