import type { PasswordChangeBody, ProfilePatchBody } from '../../contracts/auth.ts';
import {
  accountDelete,
  accountExport,
  checkUsername,
  passwordChange,
} from '../../contracts/endpoints/account.ts';
import { profileUpdate } from '../../contracts/endpoints/profile.ts';
import { blockList, unblock } from '../../contracts/endpoints/safety.ts';
import type { DeleteAccountBody } from '../../contracts/safety.ts';
import { api, pathOf } from '../../lib/api.ts';
import { apiUrl } from '../../lib/apiHost.ts';
import { authApi } from '../auth/api.ts';

/** The account calls of the settings page (docs/product.md "Session and API calls"); every update answers the member. */
export const settingsApi = {
  me: authApi.me,
  updateProfile: (body: ProfilePatchBody) => api(profileUpdate, { body }),
  /** Multipart, for a new profile picture; interests travel comma-joined. */
  updateProfileWithPicture: (form: FormData) => api(profileUpdate, { form }),
  changePassword: (body: PasswordChangeBody) => api(passwordChange, { body }),
  checkUsername: (username: string, signal?: AbortSignal) =>
    api(checkUsername, { query: { username }, ...(signal ? { signal } : {}) }),
  /** The members one has blocked, newest block first (docs/product.md "Blocking"). */
  blocks: () => api(blockList, { cache: 'no-store' }),
  unblock: (userId: string) => api(unblock, { params: { userId } }),
  /** Deletes the account signed in; the answer clears the session cookie (docs/product.md "Leaving"). */
  deleteAccount: (body: DeleteAccountBody) => api(accountDelete, { body }),
};

/**
 * Where "Download my data" points: the browser follows it with the session cookie and saves the
 * zip as the server streams it, so the archive never has to fit in the page's memory.
 */
export const EXPORT_URL = apiUrl(pathOf(accountExport));
