import { useEffect } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../lib/constants.ts';
import type { SearchResult } from '../../contracts/friends.ts';
import { HttpError } from '../../lib/http.ts';
import { searches, useSearch } from './store.ts';

export { rowStatus } from './rows.ts';

export type SearchState =
  | { phase: 'idle' }
  | { phase: 'searching' }
  | { phase: 'error'; message: string }
  | { phase: 'done'; results: SearchResult[] };

const SEARCH_UNAUTHORIZED = 'Sign in to search.';
const SEARCH_FAILED = 'Search error. Try again.';

/**
 * docs/product.md "Validation rules": a blank query clears and asks nothing; otherwise results after 120 ms of quiet,
 * and a newer search aborts the one in flight.
 */
export function useMemberSearch(query: string): SearchState {
  const text = query.trim();
  const entry = useSearch((state) => (text ? state.results[text] : undefined));
  useEffect(() => {
    if (!text) return;
    let stop: (() => void) | undefined;
    const timer = setTimeout(() => {
      stop = searches.show(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      stop?.();
    };
  }, [text]);
  if (!text) return { phase: 'idle' };
  switch (entry?.status) {
    case 'ready':
      return { phase: 'done', results: entry.value ?? [] };
    case 'error':
    case 'missing': {
      const unauthorized = entry.error instanceof HttpError && entry.error.status === 401;
      return { phase: 'error', message: unauthorized ? SEARCH_UNAUTHORIZED : SEARCH_FAILED };
    }
    case undefined:
    case 'loading':
      return { phase: 'searching' };
  }
}
