/** The session: signing up, in and out, the session check and the password reset, open to the signed out. */
import {
  ForgotQuestionBody,
  ForgotResetBody,
  LoginBody,
  SecurityQuestionResponse,
  TokenResponse,
  UsernameAvailableResponse,
  UsernameQuery,
} from '../auth.ts';
import * as PATHS from '../paths/session.ts';
import { normaliseUser, readAuth } from '../readers/user.ts';
import { AuthResponse, MeResponse } from '../user.ts';
import { ACKNOWLEDGED, endpoint } from './entry.ts';

/** Signing up's and in's answer: the member and their session, read as any server spells them. */
const AUTH_ANSWER = { answer: AuthResponse, read: readAuth };

export const signup = /* @__PURE__ */ endpoint(PATHS.signup, {
  multipart: 'only',
  ...AUTH_ANSWER,
  status: [201],
  summary: 'Sign up (multipart/form-data with the profile picture as profilePic)',
});
export const login = /* @__PURE__ */ endpoint(PATHS.login, {
  body: LoginBody,
  ...AUTH_ANSWER,
});
export const logout = /* @__PURE__ */ endpoint(PATHS.logout, ACKNOWLEDGED);
/** docs/decisions.md "Signed-out session check": `{user: null}` when signed out. */
export const me = /* @__PURE__ */ endpoint(PATHS.me, {
  answer: MeResponse,
  read: normaliseUser,
});
export const tokenBridge = /* @__PURE__ */ endpoint(PATHS.tokenBridge, {
  answer: TokenResponse,
});
/** Signup's check (docs/decisions.md "Two username checks"). */
export const usernameAvailable = /* @__PURE__ */ endpoint(PATHS.usernameAvailable, {
  query: UsernameQuery,
  answer: UsernameAvailableResponse,
});
export const forgotQuestion = /* @__PURE__ */ endpoint(PATHS.forgotQuestion, {
  body: ForgotQuestionBody,
  answer: SecurityQuestionResponse,
});
export const forgotReset = /* @__PURE__ */ endpoint(PATHS.forgotReset, {
  body: ForgotResetBody,
  ...ACKNOWLEDGED,
});
