import {
  CheckUsernameResponse,
  type PasswordChangeBody,
  type ProfilePatchBody,
} from '../../contracts/auth.ts';
import { http, parsed } from '../../lib/http.ts';

/** The account calls of the settings page (docs/product.md "Session and API calls"); every update answers `{user}`. */
export const settingsApi = {
  me: () => http.get<unknown>('/api/auth/me', { cache: 'no-store' }),
  updateProfile: (body: ProfilePatchBody) => http.patch<unknown>('/api/auth/profile', body),
  /** Multipart, for a new profile picture; interests travel comma-joined. */
  updateProfileWithPicture: (form: FormData) => http.patchForm<unknown>('/api/auth/profile', form),
  changePassword: (body: PasswordChangeBody) => http.patch<unknown>('/api/auth/password', body),
  checkUsername: (username: string, signal?: AbortSignal) =>
    parsed(
      CheckUsernameResponse,
      http.get(`/api/auth/check-username?username=${encodeURIComponent(username)}`, {
        ...(signal ? { signal } : {}),
      }),
    ),
};
