import {
  DELETED_MEMBER,
  type ModerationReport,
  type ReportMember,
  type ReportResolution,
} from '../../contracts/safety.ts';

/** How a resolved report says what was done (docs/product.md "Moderation"). */
export const RESOLUTION_LABELS: Record<ReportResolution, string> = {
  dismissed: 'Dismissed',
  photo_removed: 'Photo removed',
  member_suspended: 'Member suspended',
};

/** A member as a report names them: `@username`, or `deleted member` once their account is gone. */
export function memberName(member: ReportMember | null): string {
  return member ? `@${member.username}` : DELETED_MEMBER;
}

/** `loaded` followed by the reports of a later page it does not hold yet. */
export function withPage(
  loaded: readonly ModerationReport[],
  page: readonly ModerationReport[],
): ModerationReport[] {
  const ids = new Set(loaded.map((report) => report.id));
  return [...loaded, ...page.filter((report) => !ids.has(report.id))];
}

/**
 * Whether the action on `acted`, which ended as `resolved`, resolved the open report `other` too:
 * removing a photo resolves every open report of that photo, suspending a member every open report
 * about them (docs/decisions.md "Moderators and what they do").
 */
export function resolvedTogether(
  resolved: ModerationReport,
  acted: ModerationReport,
  other: ModerationReport,
): boolean {
  if (other.id === acted.id) return true;
  switch (resolved.resolution) {
    case 'photo_removed':
      return other.kind === 'image' && acted.image !== null && other.image?.id === acted.image.id;
    case 'member_suspended':
      return acted.member !== null && other.member?.id === acted.member.id;
    case 'dismissed':
    case null:
      return false;
  }
}
