import {
  moderationDismiss,
  moderationLift,
  moderationRemovePhoto,
  moderationReopen,
  moderationReports,
  moderationSuspend,
  moderationSuspended,
} from '../../contracts/endpoints/safety.ts';
import type { ReportReason, ReportStatus } from '../../contracts/safety.ts';
import { api } from '../../lib/api.ts';

/** The moderators' calls (docs/product.md "Moderation"). */
export const moderationApi = {
  /** One page of reports; `before` is the previous page's `nextCursor`, as it came. */
  page: (status: ReportStatus, before?: string | null) =>
    api(moderationReports, { query: { status, before: before ?? undefined } }),
  dismiss: (id: string) => api(moderationDismiss, { params: { id } }),
  /** Undoes `Dismiss`. */
  reopen: (id: string) => api(moderationReopen, { params: { id } }),
  removePhoto: (id: string, reason: ReportReason) =>
    api(moderationRemovePhoto, { params: { id }, body: { reason } }),
  suspend: (id: string, reason: string) =>
    api(moderationSuspend, { params: { id }, body: { reason } }),
  suspended: () => api(moderationSuspended),
  lift: (userId: string) => api(moderationLift, { params: { userId } }),
};
