import {
  CheckUsernameResponse,
  type PasswordChangeBody,
  type ProfilePatchBody,
} from '../../contracts/auth.ts';
import { BlockListResponse, type DeleteAccountBody } from '../../contracts/safety.ts';
import { apiUrl } from '../../lib/apiHost.ts';
import { http, parsed, request } from '../../lib/http.ts';

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
  /** The members one has blocked, newest block first (docs/product.md "Blocking"). */
  blocks: () => parsed(BlockListResponse, http.get('/api/users/blocks', { cache: 'no-store' })),
  unblock: (userId: string) =>
    request<unknown>('DELETE', `/api/users/blocks/${encodeURIComponent(userId)}`),
  /** Deletes the account signed in; the answer clears the session cookie (docs/product.md "Leaving"). */
  deleteAccount: (body: DeleteAccountBody) =>
    request<unknown>('DELETE', '/api/auth/account', { json: body }),
};

/**
 * Where "Download my data" points: the browser follows it with the session cookie and saves the
 * zip as the server streams it, so the archive never has to fit in the page's memory.
 */
export const EXPORT_URL = apiUrl('/api/auth/export');
