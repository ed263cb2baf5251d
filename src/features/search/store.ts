/**
 * Member search results by query (docs/product.md "Header search"), through the server-state
 * helper: a query is asked for while it is shown, its request aborted when the query changes.
 */
import type { SearchResult } from '../../contracts/friends.ts';
import { createEntryStore } from '../../lib/serverState.ts';
import { useSession } from '../auth/store.ts';
import { friendsApi } from '../friends/api.ts';
import { useFriends } from '../friends/store.ts';
import { rowStatus } from './rows.ts';

const store = createEntryStore<{ results: SearchResult[] }>('search', {
  results: {
    fetch: async (text, signal) => {
      const results = await friendsApi.search(text, signal);
      // Each row's friend flags are what the server knows now: the friend buttons take them.
      const meId = useSession.getState().user?.id;
      useFriends
        .getState()
        .learn(
          Object.fromEntries(
            results.filter((row) => row.id !== meId).map((row) => [row.id, rowStatus(row, meId)]),
          ),
        );
      return results;
    },
  },
});

export const useSearch = store.use;
export const { results: searches } = store.entries;
