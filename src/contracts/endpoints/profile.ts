/** A member's profile and theme, which the first page may ask for before any other page's code has arrived. */
import { ProfilePatchBody, ThemeBody, ThemeResponse, UsernameParams } from '../auth.ts';
import * as PATHS from '../paths/profile.ts';
import { normaliseUser, readProfile } from '../readers/user.ts';
import { PublicUserResponse, UserResponse } from '../user.ts';
import { endpoint, ignoreAnswer } from './entry.ts';

export const profileUpdate = /* @__PURE__ */ endpoint(PATHS.profileUpdate, {
  body: ProfilePatchBody,
  multipart: 'also',
  answer: UserResponse,
  read: normaliseUser,
  summary: 'Update the profile (JSON, or multipart/form-data with a new profilePic)',
});
export const themeSave = /* @__PURE__ */ endpoint(PATHS.themeSave, {
  body: ThemeBody,
  answer: ThemeResponse,
  read: ignoreAnswer,
});
export const profile = /* @__PURE__ */ endpoint(PATHS.profile, {
  params: UsernameParams,
  answer: PublicUserResponse,
  read: readProfile,
});
