import {
  moderationDismiss,
  moderationRemovePhoto,
  moderationReports,
  moderationSuspend,
} from '../../contracts/endpoints/safety.ts';
import type { ReportStatus } from '../../contracts/safety.ts';
import { api } from '../../lib/api.ts';

/** The moderators' calls (docs/product.md "Moderation"). */
export const moderationApi = {
  /** One page of reports; `before` is the previous page's `nextCursor`, as it came. */
  page: (status: ReportStatus, before?: string | null) =>
    api(moderationReports, { query: { status, before: before ?? undefined } }),
  dismiss: (id: string) => api(moderationDismiss, { params: { id } }),
  removePhoto: (id: string) => api(moderationRemovePhoto, { params: { id } }),
  suspend: (id: string, reason: string) =>
    api(moderationSuspend, { params: { id }, body: { reason } }),
};
