import {
  type ForgotResetBody,
  type LoginBody,
  SecurityQuestionResponse,
  type ThemeBody,
  UsernameAvailableResponse,
} from '../../contracts/auth.ts';
import type { Theme } from '../../contracts/theme.ts';
import { http, parsed } from '../../lib/http.ts';

/** Login and signup answers, read by the tolerant user reader (docs/product.md "Session and API calls"). */
export interface AuthBody {
  user?: unknown;
  token?: string;
}

export const authApi = {
  me: () => http.get<unknown>('/api/auth/me', { cache: 'no-store' }),
  login: (body: LoginBody) => http.post<AuthBody>('/api/auth/login', body),
  logout: () => http.post<unknown>('/api/auth/logout'),
  signup: (form: FormData) => http.postForm<AuthBody>('/api/auth/signup', form),
  checkUsername: (username: string, signal?: AbortSignal) =>
    parsed(
      UsernameAvailableResponse,
      http.get(`/api/check-username?username=${encodeURIComponent(username)}`, {
        ...(signal ? { signal } : {}),
      }),
    ),
  securityQuestion: (identifier: string) =>
    parsed(
      SecurityQuestionResponse,
      http.post('/api/auth/forgot-password/question', { identifier }),
    ),
  resetPassword: (body: ForgotResetBody) =>
    http.post<unknown>('/api/auth/forgot-password/reset', body),
  saveTheme: (theme: Theme) => http.put<unknown>('/api/users/theme', { theme } satisfies ThemeBody),
};
