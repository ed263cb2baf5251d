import { block, myOpenReports, report } from '../../contracts/endpoints/safety.ts';
import type { ReportBody } from '../../contracts/safety.ts';
import { api } from '../../lib/api.ts';
import { HttpError } from '../../lib/http.ts';

/** Blocking and reporting (docs/product.md "Safety"); the server holds every rule. */
export const safetyApi = {
  blockMember: (userId: string) => api(block, { body: { userId } }),
  sendReport: (body: ReportBody) => api(report, { body }),
  myOpenReports: () => api(myOpenReports),
};

/**
 * What a failed block or report tells the member, in the dialog: the server's own words (a
 * duplicate report, too many reports, a member or photo no longer there), else `fallback`.
 */
export function safetyErrorText(error: unknown, fallback: string): string {
  if (error instanceof HttpError && error.serverMessage) return error.serverMessage;
  return fallback;
}
