import type { SearchResult } from '../../../../src/contracts/friends.ts';
import type { Db, Dialect } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import type { MediaUrl } from '../../media/index.ts';
import { memberSummary, statusFor } from './service.ts';
import { searchCandidates } from './searchRepository.ts';

const CONTAINS_MIN = 3;

/**
 * Case-insensitive search on username, first, last and full name; prefix matches first, at most
 * `limit`, each row with the viewer's friend flags. One statement per search
 * (docs/decisions.md "Search in one statement"); a blank query answers nothing and asks nothing.
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

  const candidates = await searchCandidates(
    db,
    dialect,
    viewer.id,
    text,
    limit,
    text.length >= CONTAINS_MIN,
  );
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  for (const row of candidates) {
    if (results.length >= limit) break;
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const status =
      row.id === viewer.id
        ? 'self'
        : statusFor(
            viewer.id,
            row.friend_status && row.friend_requester
              ? { status: row.friend_status, requester_id: row.friend_requester }
              : undefined,
          );
    results.push({
      ...memberSummary(row, mediaUrl),
      isFriend: status === 'friends',
      requestPending: status === 'pending',
      incomingPending: status === 'incoming',
    });
  }
  return results;
}
