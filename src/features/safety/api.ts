import { OkResponse } from '../../contracts/http.ts';
import type { BlockBody, ReportBody } from '../../contracts/safety.ts';
import { HttpError, http, parsed } from '../../lib/http.ts';

/** Blocking and reporting (docs/product.md "Safety"); the server holds every rule. */
export const safetyApi = {
  blockMember: (userId: string) =>
    parsed(OkResponse, http.post('/api/users/blocks', { userId } satisfies BlockBody)),
  sendReport: (report: ReportBody) => parsed(OkResponse, http.post('/api/reports', report)),
};

/**
 * What a failed block or report tells the member, in the dialog: the server's own words (a
 * duplicate report, too many reports, a member or photo no longer there), else `fallback`.
 */
export function safetyErrorText(error: unknown, fallback: string): string {
  if (error instanceof HttpError && error.serverMessage) return error.serverMessage;
  return fallback;
}
