/** The member's own account: the settings checks, the password, leaving and the export. */
import { CheckUsernameResponse, PasswordChangeBody, ThemeBody, UsernameQuery } from '../auth.ts';
import { OkResponse } from '../http.ts';
import * as PATHS from '../paths/account.ts';
import { DeleteAccountBody } from '../safety.ts';
import { UserResponse } from '../user.ts';
import { ACKNOWLEDGED, endpoint } from './entry.ts';

/** The settings check: the member's own name counts as available. */
export const checkUsername = /* @__PURE__ */ endpoint(PATHS.checkUsername, {
  query: UsernameQuery,
  answer: CheckUsernameResponse,
});
export const passwordChange = /* @__PURE__ */ endpoint(PATHS.passwordChange, {
  body: PasswordChangeBody,
  ...ACKNOWLEDGED,
});
/** docs/product.md "Leaving": the answer also clears the session cookie. */
export const accountDelete = /* @__PURE__ */ endpoint(PATHS.accountDelete, {
  body: DeleteAccountBody,
  answer: OkResponse,
});
/** The member's data as a zip, streamed as it is built; the browser follows the link itself. */
export const accountExport = /* @__PURE__ */ endpoint(PATHS.accountExport, {
  answer: 'stream',
  contentType: 'application/zip',
  description: 'The archive, as the attachment `orbit-{username}.zip`',
  summary: 'Download my data: a zip archive, streamed as it is built',
});
export const usersMe = /* @__PURE__ */ endpoint(PATHS.usersMe, { answer: UserResponse });
/** docs/decisions.md "Theme path": the same save, answering the whole member. */
export const themeSaveMe = /* @__PURE__ */ endpoint(PATHS.themeSaveMe, {
  body: ThemeBody,
  answer: UserResponse,
});
