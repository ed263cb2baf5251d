import {
  ModerationReportPage,
  ModerationReportResponse,
  type ReportStatus,
  type SuspendBody,
} from '../../contracts/safety.ts';
import { http, parsed } from '../../lib/http.ts';

const reportPath = (id: string, action: string) =>
  `/api/moderation/reports/${encodeURIComponent(id)}/${action}`;

/** The moderators' calls (docs/product.md "Moderation"). */
export const moderationApi = {
  /** One page of reports; `before` is the previous page's `nextCursor`, as it came. */
  page: (status: ReportStatus, before?: string | null) => {
    const query = new URLSearchParams({ status });
    if (before) query.set('before', before);
    return parsed(ModerationReportPage, http.get(`/api/moderation/reports?${query.toString()}`));
  },
  dismiss: (id: string) => parsed(ModerationReportResponse, http.post(reportPath(id, 'dismiss'))),
  removePhoto: (id: string) =>
    parsed(ModerationReportResponse, http.post(reportPath(id, 'remove-photo'))),
  suspend: (id: string, reason: string) =>
    parsed(
      ModerationReportResponse,
      http.post(reportPath(id, 'suspend'), { reason } satisfies SuspendBody),
    ),
};
