/** Blocking, reports and moderation (docs/product.md "Safety"). */
import * as PATHS from '../paths/safety.ts';
import { OkResponse } from '../http.ts';
import {
  BlockBody,
  BlockListResponse,
  BlockParams,
  ModerationReportPage,
  ModerationReportResponse,
  ModerationReportsQuery,
  MyOpenReports,
  ReportBody,
  RemovePhotoBody,
  ReportParams,
  SuspendBody,
  SuspendedList,
  SuspendedParams,
} from '../safety.ts';
import { endpoint } from './entry.ts';

/** A moderator's decision on the report the path names: the answer is the report after it. */
const DECISION = { params: ReportParams, answer: ModerationReportResponse };

export const blockList = /* @__PURE__ */ endpoint(PATHS.blockList, {
  answer: BlockListResponse,
});
export const block = /* @__PURE__ */ endpoint(PATHS.block, {
  body: BlockBody,
  answer: OkResponse,
});
export const unblock = /* @__PURE__ */ endpoint(PATHS.unblock, {
  params: BlockParams,
  answer: OkResponse,
});
export const report = /* @__PURE__ */ endpoint(PATHS.report, {
  body: ReportBody,
  answer: OkResponse,
  status: [201],
});
export const myOpenReports = /* @__PURE__ */ endpoint(PATHS.myOpenReports, {
  answer: MyOpenReports,
});
export const moderationReports = /* @__PURE__ */ endpoint(PATHS.moderationReports, {
  query: ModerationReportsQuery,
  answer: ModerationReportPage,
});
export const moderationDismiss = /* @__PURE__ */ endpoint(PATHS.moderationDismiss, DECISION);
export const moderationRemovePhoto = /* @__PURE__ */ endpoint(PATHS.moderationRemovePhoto, {
  ...DECISION,
  body: RemovePhotoBody,
});
/** Undoes `Dismiss`: the report is open again. */
export const moderationReopen = /* @__PURE__ */ endpoint(PATHS.moderationReopen, DECISION);
export const moderationSuspend = /* @__PURE__ */ endpoint(PATHS.moderationSuspend, {
  ...DECISION,
  body: SuspendBody,
});
export const moderationSuspended = /* @__PURE__ */ endpoint(PATHS.moderationSuspended, {
  answer: SuspendedList,
});
export const moderationLift = /* @__PURE__ */ endpoint(PATHS.moderationLift, {
  params: SuspendedParams,
  answer: OkResponse,
});
