/**
 * Members' safety and ownership (docs/product.md "Safety"): blocking, reports, moderation, deleting
 * an account and downloading one's data. The server validates with these; the app sends and reads them.
 */
import { PublicUser } from './user.ts';
import { z } from './zod.ts';

/** An id as the calls take it. */
const Id = z.string().check(z.minLength(1, 'Say which member.'), z.maxLength(200));

// ---------------------------------------------------------------------------------------------
// Blocking

/** `POST /api/users/blocks` */
export const BlockBody = z.object({ userId: Id });
export type BlockBody = z.input<typeof BlockBody>;

/** `DELETE /api/users/blocks/{userId}` */
export const BlockParams = z.object({ userId: Id });
export type BlockParams = z.infer<typeof BlockParams>;

/**
 * A member one has blocked, as Settings → Blocked members lists them: by the username they had when
 * blocked, or none (null) when they had blocked one first; never their name or picture now.
 */
export const BlockedMember = z.object({
  id: z.string(),
  username: z.nullable(z.string()),
  blockedAt: z.string(),
});
export type BlockedMember = z.infer<typeof BlockedMember>;

/** `GET /api/users/blocks`: newest block first. */
export const BlockListResponse = z.object({ users: z.array(BlockedMember) });
export type BlockListResponse = z.infer<typeof BlockListResponse>;

export const BLOCK_SELF = 'You can’t block yourself.';
/** A member one cannot see (absent, or blocked either way): blocking, reporting. */
export const NO_SUCH_MEMBER = 'No such member.';
/** The most blocked members `GET /api/users/blocks` lists. */
export const BLOCK_LIST_MAX = 500;

// ---------------------------------------------------------------------------------------------
// Reports

export const REPORT_REASONS = [
  'spam',
  'harassment',
  'nudity',
  'violence',
  'impersonation',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Each reason as members and moderators read it. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  nudity: 'Nudity or sexual content',
  violence: 'Violence',
  impersonation: 'Impersonation',
  other: 'Other',
};

const REPORT_KINDS = ['image', 'member'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_NOTE_MAX = 500;
export const REPORT_DUPLICATE = 'You have already reported this.';
export const REPORT_SELF = 'You can’t report yourself.';
/** A photo one cannot see (absent, or its owner blocked either way). */
export const NO_SUCH_PHOTO = 'No such photo.';
/** The most open reports of one member `GET /api/reports/mine` lists. */
export const MY_OPEN_REPORTS_MAX = 1000;

/**
 * `GET /api/reports/mine`: what the member has reported that no moderator has decided yet, newest
 * first, so the app offers "Reported" instead of a second report.
 */
export const MyOpenReports = z.object({
  reports: z.array(z.object({ kind: z.enum(REPORT_KINDS), targetId: z.string() })),
});
export type MyOpenReports = z.infer<typeof MyOpenReports>;

/** Reports one member may send per hour unless the operator says otherwise (REPORTS_PER_HOUR). */
export const REPORTS_PER_HOUR = 20;

/** `POST /api/reports`: a photo (`targetId` the image's id) or a member (their id). */
export const ReportBody = z.object({
  kind: z.enum(REPORT_KINDS, { error: 'Say whether a photo or a member is reported.' }),
  targetId: Id,
  reason: z.enum(REPORT_REASONS, { error: 'Pick a reason.' }),
  note: z._default(
    z
      .string()
      .check(
        z.maxLength(REPORT_NOTE_MAX, `The note can be at most ${REPORT_NOTE_MAX} characters.`),
      ),
    '',
  ),
});
export type ReportBody = z.input<typeof ReportBody>;

// ---------------------------------------------------------------------------------------------
// Moderation

const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
const REPORT_RESOLUTIONS = ['dismissed', 'photo_removed', 'member_suspended'] as const;
export type ReportResolution = (typeof REPORT_RESOLUTIONS)[number];

/** How a member whose account is gone is named wherever a report still mentions them. */
export const DELETED_MEMBER = 'deleted member';
export const MODERATORS_ONLY = 'Only moderators can do that.';
export const SUSPEND_SELF = 'You can’t suspend yourself.';
/**
 * `Suspend member` on a report about a moderator (409): the operator first removes them with
 * `npm run moderator -- remove` (docs/decisions.md "Moderators and what they do").
 */
export const SUSPEND_MODERATOR = 'Moderators can’t be suspended here.';
export const SUSPENDED_LOGIN = (reason: string) => `This account is suspended: ${reason}`;
/** Where members read what Orbit does not allow; the removal notice links here. */
export const RULES_PATH = '/rules';
/** The most characters of a caption the removal notice quotes. */
const NOTICE_CAPTION_MAX = 60;

/**
 * The notice a member gets when a moderator removes their photo (docs/product.md "Moderation"):
 * the photo by its caption, or by the day it was uploaded, and the reason the moderator chose.
 * Notices written before it named neither (`A moderator removed one of your photos.`); they are
 * read as they were written.
 */
export function photoRemovedNotice(photo: {
  caption: string;
  uploadedAt: string;
  reason: ReportReason;
}): string {
  const caption = photo.caption.trim().replace(/\s+/g, ' ');
  const named = caption
    ? `your photo “${caption.length > NOTICE_CAPTION_MAX ? `${caption.slice(0, NOTICE_CAPTION_MAX - 1)}…` : caption}”`
    : `your photo from ${new Date(photo.uploadedAt).toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      })}`;
  return `A moderator removed ${named} for ${REPORT_REASON_LABELS[photo.reason]}. Read the rules to see what isn’t allowed.`;
}
export const SUSPENSION_REASON_MAX = 500;
export const NO_SUCH_REPORT = 'No such report.';
/** A moderation action on a report another action already resolved (409). */
export const REPORT_RESOLVED = 'This report has already been resolved.';
/** `Remove photo` on a member report (400). */
export const NOT_A_PHOTO_REPORT = 'Only a photo report has a photo to remove.';
/** `Remove photo` once the photo is gone (409). */
export const PHOTO_GONE = 'That photo is already gone.';
/** `Suspend member` once the member's account is gone (409). */
export const MEMBER_GONE = 'That member’s account is gone.';
/** Undoing `Dismiss` on a report that is open (409). */
export const REPORT_OPEN = 'This report is already open.';
/** Undoing `Dismiss` on a report that another action resolved (409). */
export const REPORT_NOT_DISMISSED = 'Only a dismissed report can be opened again.';
/** Undoing `Dismiss` once the reporter has reported the same thing again (409). */
export const REPORT_REOPENED_ELSEWHERE =
  'The same member has reported this again; that report is open.';
/** `Lift suspension` for a member who is not suspended (409). */
export const NOT_SUSPENDED = 'That member isn’t suspended.';
/** The most suspended members `GET /api/moderation/suspended` lists. */
export const SUSPENDED_LIST_MAX = 500;

/** A member a report names; null once their account is deleted (shown as `deleted member`). */
export const ReportMember = z.pick(PublicUser, { id: true, username: true, profileImage: true });
export type ReportMember = z.infer<typeof ReportMember>;

/** The reported photo as it is now; null once it is gone. */
const ReportImage = z.object({
  id: z.string(),
  url: z.string(),
  thumbnailUrl: z.string(),
  caption: z.string(),
});
type ReportImage = z.infer<typeof ReportImage>;

export const ModerationReport = z.object({
  id: z.string(),
  kind: z.enum(REPORT_KINDS),
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  createdAt: z.string(),
  reporter: z.nullable(ReportMember),
  /** The member reported, or the photo's owner. */
  member: z.nullable(ReportMember),
  /** The photo, for a photo report while it still exists. */
  image: z.nullable(ReportImage),
  status: z.enum(REPORT_STATUSES),
  resolution: z.nullable(z.enum(REPORT_RESOLUTIONS)),
  resolvedBy: z.nullable(ReportMember),
  resolvedAt: z.nullable(z.string()),
});
export type ModerationReport = z.infer<typeof ModerationReport>;

export const REPORT_CURSOR_INVALID = 'That page cursor is not valid.';
export const REPORTS_PAGE_SIZE = 50;

/** `GET /api/moderation/reports`: open ones newest first, or resolved ones latest resolved first. */
export const ModerationReportsQuery = z.object({
  status: z._default(
    z.enum(REPORT_STATUSES, { error: 'Ask for open or resolved reports.' }),
    'open',
  ),
  /**
   * The `nextCursor` of the page before, as it came: opaque (base64url), since a page of resolved
   * reports ends at a time and an id. A cursor of the other status, or one the server did not
   * write, answers 400 REPORT_CURSOR_INVALID.
   */
  before: z.optional(
    z.string().check(z.maxLength(200), z.regex(/^[A-Za-z0-9_-]*$/, REPORT_CURSOR_INVALID)),
  ),
});
export type ModerationReportsQuery = z.input<typeof ModerationReportsQuery>;

export const ModerationReportPage = z.object({
  reports: z.array(ModerationReport),
  nextCursor: z.nullable(z.string()),
});
export type ModerationReportPage = z.infer<typeof ModerationReportPage>;

export const ReportParams = z.object({
  id: z.string().check(z.maxLength(20), z.regex(/^\d+$/, 'No such report.')),
});
export type ReportParams = z.infer<typeof ReportParams>;

/** `POST /api/moderation/reports/{id}/suspend` */
export const SuspendBody = z.object({
  // Missing reads as empty, so it is refused in the words below.
  reason: z.prefault(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Give a reason the member will see.'),
        z.maxLength(
          SUSPENSION_REASON_MAX,
          `The reason can be at most ${SUSPENSION_REASON_MAX} characters.`,
        ),
      ),
    '',
  ),
});
export type SuspendBody = z.input<typeof SuspendBody>;

/** `POST /api/moderation/reports/{id}/remove-photo`: the reason the owner is told; the report's own when absent. */
export const RemovePhotoBody = z.object({
  reason: z.optional(z.enum(REPORT_REASONS, { error: 'Pick a reason.' })),
});
export type RemovePhotoBody = z.input<typeof RemovePhotoBody>;

/** A suspended member as moderators see them, with the reason they were given and when. */
export const SuspendedMember = z.object({
  id: z.string(),
  username: z.string(),
  profileImage: z.string(),
  reason: z.string(),
  suspendedAt: z.string(),
});
export type SuspendedMember = z.infer<typeof SuspendedMember>;

/** `GET /api/moderation/suspended`: latest suspended first. */
export const SuspendedList = z.object({ members: z.array(SuspendedMember) });
export type SuspendedList = z.infer<typeof SuspendedList>;

/** `DELETE /api/moderation/suspended/{userId}` */
export const SuspendedParams = z.object({ userId: Id });
export type SuspendedParams = z.infer<typeof SuspendedParams>;

/** Each moderation action answers the report as it now stands. */
export const ModerationReportResponse = z.object({ report: ModerationReport });
export type ModerationReportResponse = z.infer<typeof ModerationReportResponse>;

// ---------------------------------------------------------------------------------------------
// Leaving: delete my account, download my data

/** `DELETE /api/auth/account`: the password, and the username typed again. */
export const DeleteAccountBody = z.object({
  password: z._default(z.string().check(z.maxLength(10_000)), ''),
  username: z._default(z.string().check(z.maxLength(200)), ''),
});
export type DeleteAccountBody = z.input<typeof DeleteAccountBody>;

export const DELETE_USERNAME_MISMATCH = 'Type your username to confirm.';

/** One download of one's data per this long. */
export const EXPORT_INTERVAL_MS = 10 * 60 * 1000;
export const EXPORT_TOO_SOON = 'You can download your data once every 10 minutes.';
