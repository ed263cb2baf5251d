import { http } from '../../lib/http.ts';

export const profileApi = {
  byUsername: (username: string, signal?: AbortSignal) =>
    http.get<unknown>(`/api/users/profile/${encodeURIComponent(username)}`, {
      ...(signal ? { signal } : {}),
    }),
  saveQuote: (favoriteQuote: string) => http.patch<unknown>('/api/auth/profile', { favoriteQuote }),
};
