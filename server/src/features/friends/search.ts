import { type SearchResult, pairKey } from '../../../../src/contracts/friends.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import type { MediaUrl } from '../../media/index.ts';
import { findFriendships } from './repository.ts';
import { memberSummary, statusFor } from './service.ts';
import { type PrefixColumn, byContains, byPrefix } from './searchRepository.ts';

/** Prefix matches rank by where they matched; substring matches come after every prefix match. */
const PREFIX_COLUMNS: readonly PrefixColumn[] = ['username_key', 'full_name_key', 'last_name_key'];
const CONTAINS_MIN = 3;

/**
 * Case-insensitive search on username, first, last and full name; prefix matches first, at most
 * `limit`, each row with the viewer's friend flags. A blank query answers nothing and asks nothing.
 */
export async function searchMembers(
  db: Db,
  dialect: Dialect,
  viewer: UserRow,
  query: string,
  limit: number,
  mediaUrl: MediaUrl,
): Promise<SearchResult[]> {
  const text = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!text) return [];

  const found = new Map<string, UserRow>();
  const prefixLists = await Promise.all(
    PREFIX_COLUMNS.map((column) => byPrefix(db, column, text, limit)),
  );
  for (const list of prefixLists) {
    for (const row of list) if (found.size < limit && !found.has(row.id)) found.set(row.id, row);
  }
  if (found.size < limit && text.length >= CONTAINS_MIN) {
    const extra = await byContains(db, dialect, text, limit * 2);
    for (const row of extra) {
      if (found.size >= limit) break;
      if (!found.has(row.id) && row.search_text.includes(text)) found.set(row.id, row);
    }
  }

  const rows = [...found.values()];
  const relations = await findFriendships(
    db,
    rows.filter((row) => row.id !== viewer.id).map((row) => pairKey(viewer.id, row.id)),
  );
  const byKey = new Map(relations.map((relation) => [relation.pair_key, relation]));
  return rows.map((row) => {
    const status =
      row.id === viewer.id ? 'self' : statusFor(viewer.id, byKey.get(pairKey(viewer.id, row.id)));
    return {
      ...memberSummary(row, mediaUrl),
      isFriend: status === 'friends',
      requestPending: status === 'pending',
      incomingPending: status === 'incoming',
    };
  });
}
