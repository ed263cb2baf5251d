import { profile, profileUpdate } from '../../contracts/endpoints/profile.ts';
import { api } from '../../lib/api.ts';
import { REQUEST_TIMEOUT_MS } from '../../lib/constants.ts';

const fetchProfile = (username: string, signal?: AbortSignal) =>
  api(profile, { params: { username }, ...(signal ? { signal } : {}) });

type ProfileAnswer = ReturnType<typeof fetchProfile>;

/**
 * A profile asked for before its page was shown, handed to the page's first request for it if
 * that comes within a request's time-out; later, the page asks afresh.
 */
let early: { username: string; answer: ProfileAnswer; at: number } | null = null;

/** A member's profile, read at the edge (its user null when the answer names nobody), and the quote. */
export const profileApi = {
  byUsername: (username: string, signal?: AbortSignal): ProfileAnswer => {
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
  prefetch: (username: string): ProfileAnswer => {
    const answer = fetchProfile(username);
    answer.catch(() => undefined);
    early = { username, answer, at: Date.now() };
    return answer;
  },
  saveQuote: (favoriteQuote: string) => api(profileUpdate, { body: { favoriteQuote } }),
};
