import {
  MEMBER_GONE,
  MODERATORS_ONLY,
  type ModerationReport,
  type ModerationReportPage,
  MY_OPEN_REPORTS_MAX,
  type MyOpenReports,
  NOT_A_PHOTO_REPORT,
  NOT_SUSPENDED,
  NO_SUCH_MEMBER,
  NO_SUCH_PHOTO,
  NO_SUCH_REPORT,
  PHOTO_GONE,
  REPORTS_PAGE_SIZE,
  REPORT_CURSOR_INVALID,
  REPORT_DUPLICATE,
  REPORT_NOT_DISMISSED,
  REPORT_OPEN,
  REPORT_REOPENED_ELSEWHERE,
  REPORT_RESOLVED,
  REPORT_SELF,
  type ReportBody,
  type ReportMember,
  type ReportReason,
  type ReportStatus,
  SUSPENDED_LIST_MAX,
  SUSPEND_MODERATOR,
  SUSPEND_SELF,
  type SuspendedList,
  photoRemovedNotice,
} from '../../../../src/contracts/safety.ts';
import { displayText } from '../../../../src/contracts/validation.ts';
import { type Db, isUniqueViolation } from '../../db/index.ts';
import type { ReportRow, UserRow } from '../../db/schema.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../errors.ts';
import { type Media, type MediaUrl, galleryKey } from '../../media/index.ts';
import { visibleMemberById } from '../../members/blocks.ts';
import { memberById } from '../../members/lookups.ts';
import { endAllSessions } from '../auth/service.ts';
import { type GalleryEvents, imageById, removeImage, visibleImage } from '../gallery/service.ts';
import {
  type Announce,
  type NotificationEvents,
  drafts,
  record,
} from '../notifications/service.ts';
import { forgetDevicesOf } from '../push/service.ts';
import * as repo from './repository.ts';

const stamp = (deps: { now?: () => Date }) => (deps.now ? deps.now() : new Date()).toISOString();

// ---------------------------------------------------------------------------------------------
// Reports members make

export interface ReportDeps {
  db: Db;
  now?: () => Date;
}

/**
 * A member reports a photo or a member (docs/product.md "Reports"). Oneself and one's own photos
 * cannot be reported (400); what the member cannot see, absent or blocked either way, is 404; a
 * second open report of the same item by the same member is 409, which the partial unique index
 * decides, so two sent at once cannot both be kept.
 */
export async function createReport(
  deps: ReportDeps,
  me: UserRow,
  body: { kind: ReportBody['kind']; targetId: string; reason: string; note: string },
): Promise<void> {
  let targetUserId: string;
  if (body.kind === 'image') {
    const image = await visibleImage(deps, me.id, body.targetId);
    if (!image) throw new NotFound(NO_SUCH_PHOTO);
    if (image.owner_id === me.id) throw new Invalid(REPORT_SELF);
    targetUserId = image.owner_id;
  } else {
    if (body.targetId === me.id) throw new Invalid(REPORT_SELF);
    const member = await visibleMemberById(deps.db, me.id, body.targetId);
    if (!member) throw new NotFound(NO_SUCH_MEMBER);
    targetUserId = member.id;
  }
  try {
    await repo.insertReport(deps.db, {
      reporterId: me.id,
      kind: body.kind,
      targetId: body.targetId,
      targetUserId,
      reason: body.reason,
      note: displayText(body.note).trim(),
      now: stamp(deps),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(REPORT_DUPLICATE);
    throw error;
  }
}

/** What the member reported that is still open: the app shows "Reported" for these. */
export async function openReportsOf(deps: ReportDeps, me: UserRow): Promise<MyOpenReports> {
  const rows = await repo.openReportsBy(deps.db, me.id, MY_OPEN_REPORTS_MAX);
  return { reports: rows.map((row) => ({ kind: row.target_kind, targetId: row.target_id })) };
}

// ---------------------------------------------------------------------------------------------
// What moderators see

export interface ModerationDeps {
  db: Db;
  media: Media;
  /** Watchers of a gallery hear of a removed photo as of the owner's delete. */
  galleryEvents: GalleryEvents;
  notifications: NotificationEvents;
  /** Every node forgets these members' sessions (the auth plugin's revocation channel). */
  membersChanged: (userIds: readonly string[]) => Promise<void>;
  /** Every node disconnects these members' sockets. */
  disconnectMembers: (userIds: readonly string[]) => void;
  now?: () => Date;
}

/** Report ids are the database's integer ids: 1 to 2³¹ − 1 on both databases. */
const MAX_REPORT_ID = 2 ** 31 - 1;

/** The report a path names; any id beyond the database's range names none. */
function reportId(text: string): number {
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_REPORT_ID) throw new NotFound(NO_SUCH_REPORT);
  return id;
}

type Cursor = { status: 'open'; id: number } | { status: 'resolved'; at: string; id: number };

const cursorText = (cursor: Cursor) =>
  cursor.status === 'open' ? `o${cursor.id}` : `r${cursor.at}~${cursor.id}`;

/** A page cursor: the last report's place, base64url, so that clients keep it whole. */
function encodeCursor(cursor: Cursor): string {
  return Buffer.from(cursorText(cursor)).toString('base64url');
}

/** The place a cursor of `status` carries; a 400 for one this server did not write. */
function decodeCursor(status: ReportStatus, text: string): Cursor {
  const raw = Buffer.from(text, 'base64url').toString('utf8');
  const match = /^(?:o|r([^~]{1,40})~)(\d{1,10})$/.exec(raw);
  const id = Number(match?.[2]);
  const cursor: Cursor | undefined =
    !match || !Number.isSafeInteger(id)
      ? undefined
      : match[1] === undefined
        ? { status: 'open', id }
        : { status: 'resolved', at: match[1], id };
  if (!cursor || cursor.status !== status || encodeCursor(cursor) !== text)
    throw new Invalid(REPORT_CURSOR_INVALID);
  return cursor;
}

function reportMember(
  id: string | null,
  username: string | null,
  profileImage: string | null,
  mediaUrl: MediaUrl,
): ReportMember | null {
  if (id === null || username === null) return null;
  return { id, username, profileImage: mediaUrl(profileImage ?? '') };
}

function toModerationReport(row: repo.ReportWithParties, mediaUrl: MediaUrl): ModerationReport {
  return {
    id: String(row.id),
    kind: row.target_kind,
    reason: row.reason as ModerationReport['reason'],
    note: row.note,
    createdAt: row.created_at,
    reporter: reportMember(
      row.reporter_id,
      row.reporter_username,
      row.reporter_profile_image,
      mediaUrl,
    ),
    member: reportMember(
      row.target_user_id,
      row.member_username,
      row.member_profile_image,
      mediaUrl,
    ),
    image:
      row.image_id !== null && row.image_display_file !== null && row.image_thumb_file !== null
        ? {
            id: row.image_id,
            url: mediaUrl(galleryKey(row.image_display_file)),
            thumbnailUrl: mediaUrl(galleryKey(row.image_thumb_file)),
            caption: displayText(row.image_caption ?? ''),
          }
        : null,
    status: row.status,
    resolution: row.resolution,
    resolvedBy: reportMember(
      row.resolved_by,
      row.resolver_username,
      row.resolver_profile_image,
      mediaUrl,
    ),
    resolvedAt: row.resolved_at,
  };
}

/**
 * A page of reports (docs/product.md "Moderation"): open ones newest first, resolved ones latest
 * resolved first, REPORTS_PAGE_SIZE at a time, keyset-paged.
 */
export async function reportsPage(
  deps: ModerationDeps,
  status: ReportStatus,
  before: string | undefined,
): Promise<ModerationReportPage> {
  const cursor = before ? decodeCursor(status, before) : undefined;
  const rows =
    status === 'open'
      ? await repo.openPage(deps.db, cursor?.id, REPORTS_PAGE_SIZE + 1)
      : await repo.resolvedPage(
          deps.db,
          cursor?.status === 'resolved' ? cursor : undefined,
          REPORTS_PAGE_SIZE + 1,
        );
  const page = rows.slice(0, REPORTS_PAGE_SIZE);
  const last = page.at(-1);
  const next: Cursor | undefined =
    rows.length <= REPORTS_PAGE_SIZE || !last
      ? undefined
      : status === 'open'
        ? { status: 'open', id: last.id }
        : { status: 'resolved', at: last.resolved_at ?? '', id: last.id };
  return {
    reports: page.map((row) => toModerationReport(row, deps.media.url)),
    nextCursor: next ? encodeCursor(next) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// What moderators do

/** The open report a path's id names: 404 when there is none, 409 once it is resolved. */
async function openReport(deps: ModerationDeps, idText: string): Promise<ReportRow> {
  const report = await repo.findReport(deps.db, reportId(idText));
  if (!report) throw new NotFound(NO_SUCH_REPORT);
  if (report.status !== 'open') throw new Conflict(REPORT_RESOLVED);
  return report;
}

/** The report as it now stands, for the answer of an action. */
async function current(deps: ModerationDeps, id: number): Promise<ModerationReport> {
  const row = await repo.reportWithParties(deps.db, id);
  if (!row) throw new NotFound(NO_SUCH_REPORT);
  return toModerationReport(row, deps.media.url);
}

/** Closes the report with nothing done. */
export async function dismiss(
  deps: ModerationDeps,
  moderator: UserRow,
  idText: string,
): Promise<ModerationReport> {
  const { id } = await openReport(deps, idText);
  const resolved = await repo.resolveOpen(
    deps.db,
    { id },
    { resolution: 'dismissed', moderatorId: moderator.id, now: stamp(deps) },
  );
  if (resolved.length === 0) throw new Conflict(REPORT_RESOLVED);
  return current(deps, id);
}

/**
 * Undoes `Dismiss` (docs/product.md "Moderation"): the dismissed report is open again, as before.
 * An open report is 409, as is one another action resolved, or one whose reporter has reported the
 * same item again meanwhile (the partial unique index keeps one open report per reporter and item).
 */
export async function reopen(deps: ModerationDeps, idText: string): Promise<ModerationReport> {
  const report = await repo.findReport(deps.db, reportId(idText));
  if (!report) throw new NotFound(NO_SUCH_REPORT);
  if (report.status === 'open') throw new Conflict(REPORT_OPEN);
  let reopened: boolean;
  try {
    reopened = await repo.reopenDismissed(deps.db, report.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(REPORT_REOPENED_ELSEWHERE);
    throw error;
  }
  if (!reopened) throw new Conflict(REPORT_NOT_DISMISSED);
  return current(deps, report.id);
}

/**
 * Deletes the reported photo exactly as its owner's delete does (the gallery's own path: the row,
 * then the announcement, then the pictures, retried), resolving every open report of that photo
 * and writing the owner's `system` notification in the row's transaction; the notification is
 * announced once that has committed. It names the photo and the reason the moderator chose (the
 * report's own when none is given) and links to the rules.
 */
export async function removePhoto(
  deps: ModerationDeps,
  moderator: UserRow,
  idText: string,
  chosenReason?: ReportReason,
): Promise<ModerationReport> {
  const report = await openReport(deps, idText);
  if (report.target_kind !== 'image') throw new Invalid(NOT_A_PHOTO_REPORT);
  const image = await imageById(deps, report.target_id);
  if (!image) throw new Conflict(PHOTO_GONE);
  const now = stamp(deps);
  let announce: Announce | undefined;
  const removed = await removeImage(
    { db: deps.db, media: deps.media, events: deps.galleryEvents },
    image,
    async (trx) => {
      const resolved = await repo.resolveOpen(
        trx,
        { imageId: image.id },
        { resolution: 'photo_removed', moderatorId: moderator.id, now },
      );
      // Another moderator resolved this one meanwhile: nothing of this action is kept.
      if (!resolved.includes(report.id)) throw new Conflict(REPORT_RESOLVED);
      const notice = photoRemovedNotice({
        caption: displayText(image.caption),
        uploadedAt: image.created_at,
        reason: chosenReason ?? (report.reason as ReportReason),
      });
      announce = await record(trx, drafts.photoRemoved(image.owner_id, notice), now);
    },
  );
  if (!removed) throw new Conflict(PHOTO_GONE);
  await announce?.({ db: deps.db, events: deps.notifications, mediaUrl: deps.media.url });
  return current(deps, report.id);
}

/**
 * Suspends the member the report is about (docs/product.md "Moderation"): in one transaction the
 * member is marked suspended with the reason, every open report about them is resolved, and their
 * sessions and push devices are deleted. Then every node forgets their sessions (the revocation
 * channel) and disconnects their sockets. Their login answers 403 with the reason from then on.
 *
 * Moderators are not suspended here (409), and the acting moderator must still moderate and not
 * be suspended (403): both are read again inside the transaction, with the two rows locked, so
 * neither the operator's `npm run moderator` a moment before nor another moderator's suspension at
 * the same time gets past them (docs/decisions.md "Moderators and what they do").
 */
export async function suspend(
  deps: ModerationDeps,
  moderator: UserRow,
  idText: string,
  reasonText: string,
): Promise<ModerationReport> {
  const report = await openReport(deps, idText);
  if (report.target_user_id === moderator.id) throw new Invalid(SUSPEND_SELF);
  const member = await memberById(deps.db, report.target_user_id);
  if (!member) throw new Conflict(MEMBER_GONE);
  const reason = displayText(reasonText).trim();
  if (!reason) throw new Invalid('Give a reason the member will see.');
  const now = stamp(deps);
  await deps.db.transaction().execute(async (trx) => {
    const standing = await repo.standingOf(trx, [moderator.id, member.id]);
    const actor = standing.find((row) => row.id === moderator.id);
    const target = standing.find((row) => row.id === member.id);
    if (actor?.is_moderator !== 1 || actor.suspended_at !== null)
      throw new Forbidden(MODERATORS_ONLY);
    if (!target) throw new Conflict(MEMBER_GONE);
    if (target.is_moderator === 1) throw new Conflict(SUSPEND_MODERATOR);
    const resolved = await repo.resolveOpen(
      trx,
      { memberId: member.id },
      { resolution: 'member_suspended', moderatorId: moderator.id, now },
    );
    if (!resolved.includes(report.id)) throw new Conflict(REPORT_RESOLVED);
    await repo.suspendMember(trx, member.id, reason, now);
    await forgetDevicesOf(trx, member.id);
    await endAllSessions(trx, member.id);
  });
  await deps.membersChanged([member.id]);
  deps.disconnectMembers([member.id]);
  return current(deps, report.id);
}

/** Suspended members with the reason they were given, latest first (docs/product.md "Moderation"). */
export async function suspendedList(deps: ModerationDeps): Promise<SuspendedList> {
  const rows = await repo.suspendedMembers(deps.db, SUSPENDED_LIST_MAX);
  return {
    members: rows.map((row) => ({
      id: row.id,
      username: row.username,
      profileImage: deps.media.url(row.profile_image),
      reason: row.suspension_reason,
      suspendedAt: row.suspended_at ?? '',
    })),
  };
}

/**
 * `Lift suspension`: the member can log in again, as with `npm run moderator -- unsuspend`. An
 * unknown member is 404; one who is not suspended (lifted a moment before, say) is 409.
 */
export async function liftSuspension(deps: ModerationDeps, userId: string): Promise<void> {
  if (!(await memberById(deps.db, userId))) throw new NotFound(NO_SUCH_MEMBER);
  if (!(await repo.unsuspendMember(deps.db, userId, stamp(deps))))
    throw new Conflict(NOT_SUSPENDED);
}

/** Whether the member is a moderator now (read fresh: the operator may have just changed it). */
export function isModerator(deps: { db: Db }, userId: string): Promise<boolean> {
  return repo.isModerator(deps.db, userId);
}
