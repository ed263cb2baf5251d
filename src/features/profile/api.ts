import { REQUEST_TIMEOUT_MS } from '../../lib/constants.ts';
import { http } from '../../lib/http.ts';

const fetchProfile = (username: string, signal?: AbortSignal) =>
  http.get<unknown>(`/api/users/profile/${encodeURIComponent(username)}`, {
    ...(signal ? { signal } : {}),
  });

/**
 * A profile asked for before its page was shown, handed to the page's first request for it if
 * that comes within a request's time-out; later, the page asks afresh.
 */
let early: { username: string; answer: Promise<unknown>; at: number } | null = null;

export const profileApi = {
  byUsername: (username: string, signal?: AbortSignal) => {
    const taken = early;
    early = null;
    if (taken?.username === username && Date.now() - taken.at < REQUEST_TIMEOUT_MS)
      return taken.answer;
    return fetchProfile(username, signal);
  },
  /**
   * Starts loading a profile before its page's code has arrived (a start on /profile/{username});
   * the page's first `byUsername` for it takes this answer.
   */
  prefetch: (username: string): Promise<unknown> => {
    const answer = fetchProfile(username);
    answer.catch(() => undefined);
    early = { username, answer, at: Date.now() };
    return answer;
  },
  saveQuote: (favoriteQuote: string) => http.patch<unknown>('/api/auth/profile', { favoriteQuote }),
};
