/** The member's own account and profiles. */
import {
  CheckUsernameResponse,
  PasswordChangeBody,
  ProfilePatchBody,
  ThemeBody,
  ThemeResponse,
  UsernameParams,
  UsernameQuery,
} from '../auth.ts';
import * as PATHS from '../endpoints.paths.ts';
import { OkResponse } from '../http.ts';
import { normaliseUser, readProfile } from '../readers/user.ts';
import { DeleteAccountBody } from '../safety.ts';
import { PublicUserResponse, UserResponse } from '../user.ts';
import { endpoint } from './entry.ts';

/** The settings check: the member's own name counts as available. */
export const checkUsername = /* @__PURE__ */ endpoint(PATHS.checkUsername, {
  query: UsernameQuery,
  answer: CheckUsernameResponse,
});
export const profileUpdate = /* @__PURE__ */ endpoint(PATHS.profileUpdate, {
  body: ProfilePatchBody,
  multipart: 'also',
  answer: UserResponse,
  read: normaliseUser,
  summary: 'Update the profile (JSON, or multipart/form-data with a new profilePic)',
});
export const passwordChange = /* @__PURE__ */ endpoint(PATHS.passwordChange, {
  body: PasswordChangeBody,
  answer: OkResponse,
  read: () => null,
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
export const themeSave = /* @__PURE__ */ endpoint(PATHS.themeSave, {
  body: ThemeBody,
  answer: ThemeResponse,
  read: () => null,
});
/** docs/decisions.md "Theme path": the same save, answering the whole member. */
export const themeSaveMe = /* @__PURE__ */ endpoint(PATHS.themeSaveMe, {
  body: ThemeBody,
  answer: UserResponse,
});
export const profile = /* @__PURE__ */ endpoint(PATHS.profile, {
  params: UsernameParams,
  answer: PublicUserResponse,
  read: readProfile,
});
