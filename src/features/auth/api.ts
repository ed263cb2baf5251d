import type { ForgotResetBody, LoginBody } from '../../contracts/auth.ts';
import { themeSave } from '../../contracts/endpoints/profile.ts';
import {
  forgotQuestion,
  forgotReset,
  login,
  logout,
  me,
  signup,
  usernameAvailable,
} from '../../contracts/endpoints/session.ts';
import type { Theme } from '../../contracts/theme.ts';
import { api } from '../../lib/api.ts';

/** The session's calls (docs/product.md "Session and API calls"); members come out read once, at the edge. */
export const authApi = {
  me: () => api(me, { cache: 'no-store' }),
  login: (body: LoginBody) => api(login, { body }),
  logout: () => api(logout),
  signup: (form: FormData) => api(signup, { form }),
  checkUsername: (username: string, signal?: AbortSignal) =>
    api(usernameAvailable, { query: { username }, ...(signal ? { signal } : {}) }),
  securityQuestion: (identifier: string) => api(forgotQuestion, { body: { identifier } }),
  resetPassword: (body: ForgotResetBody) => api(forgotReset, { body }),
  saveTheme: (theme: Theme) => api(themeSave, { body: { theme } }),
};
