import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';

/** The smallest string greater than every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  const chars = Array.from(prefix);
  const last = chars.pop() ?? '';
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) ?? 0) + 1);
}

export type PrefixColumn = 'username_key' | 'full_name_key' | 'last_name_key';

/** Members whose key starts with `prefix`: an index range on both databases (byte order). */
export function byPrefix(db: Db, column: PrefixColumn, prefix: string, limit: number): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(column, '>=', prefix)
    .where(column, '<', prefixEnd(prefix))
    .orderBy(column)
    .limit(limit)
    .execute();
}

/** Escapes LIKE's wildcards so the text matches itself. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Members whose "username first last" contains `text` (3 or more characters): pg_trgm's GIN index
 * on PostgreSQL, the FTS5 trigram table on SQLite.
 */
export async function byContains(
  db: Db,
  dialect: Dialect,
  text: string,
  limit: number,
): Promise<UserRow[]> {
  if (dialect === 'postgres') {
    return db
      .selectFrom('users')
      .selectAll()
      .where(sql<boolean>`search_text like ${`%${likeLiteral(text)}%`}`)
      .orderBy('username_key')
      .limit(limit)
      .execute();
  }
  // FTS5's trigram LIKE takes no ESCAPE clause: wildcards in the text may widen the match, so the
  // caller keeps only true substrings.
  return db
    .selectFrom('users_search')
    .innerJoin('users', 'users.id', 'users_search.user_id')
    .selectAll('users')
    .where(sql<boolean>`users_search.search_text like ${`%${text}%`}`)
    .orderBy('users.username_key')
    .limit(limit)
    .execute();
}
