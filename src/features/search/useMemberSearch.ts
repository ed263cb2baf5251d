import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../contracts/constants.ts';
import type { FriendStatus, SearchResultView as SearchResult } from '../../contracts/friends.ts';
import { HttpError } from '../../lib/http.ts';
import { friendsApi } from '../friends/api.ts';
import { useFriends } from '../friends/store.ts';

export type SearchState =
  | { phase: 'idle' }
  | { phase: 'searching' }
  | { phase: 'error'; message: string }
  | { phase: 'done'; results: SearchResult[] };

export const SEARCH_UNAUTHORIZED = 'Sign in to search.';
export const SEARCH_FAILED = 'Search error. Try again.';

/** A search row's status from its flags (the server fills them in; docs/decisions.md "Search fills in friend flags"). */
export function rowStatus(row: SearchResult, meId: string | undefined): FriendStatus {
  if (row._id === meId) return 'self';
  if (row.isFriend) return 'friends';
  if (row.requestPending) return 'pending';
  if (row.incomingPending) return 'incoming';
  return 'none';
}

/**
 * docs/product.md "Validation rules": a blank query clears and asks nothing; otherwise results after 120 ms of quiet,
 * and a newer search aborts the one in flight.
 */
export function useMemberSearch(query: string, meId: string | undefined): SearchState {
  const [state, setState] = useState<{ for: string; value: SearchState }>({
    for: '',
    value: { phase: 'idle' },
  });
  const text = query.trim();
  useEffect(() => {
    if (!text) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState({ for: text, value: { phase: 'searching' } });
      friendsApi.search(text, controller.signal).then(
        (results) => {
          useFriends
            .getState()
            .learn(
              Object.fromEntries(
                results
                  .filter((row) => row._id !== meId)
                  .map((row) => [row._id, rowStatus(row, meId)]),
              ),
            );
          setState({ for: text, value: { phase: 'done', results } });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const message =
            error instanceof HttpError && error.status === 401
              ? SEARCH_UNAUTHORIZED
              : SEARCH_FAILED;
          setState({ for: text, value: { phase: 'error', message } });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, meId]);
  if (!text) return { phase: 'idle' };
  return state.for === text ? state.value : { phase: 'searching' };
}
