import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';

const LAST_CODE_POINT = 0x10ffff;
const SURROGATES = { first: 0xd800, after: 0xe000 };

/**
 * The smallest string greater than every string starting with `prefix`: its last character
 * raised by one, carrying past U+10FFFF (and over the surrogate range); null when every character
 * is U+10FFFF and nothing is greater.
 */
function prefixEnd(prefix: string): string | null {
  const chars = Array.from(prefix);
  while (chars.length > 0) {
    const next = (chars.pop()?.codePointAt(0) ?? 0) + 1;
    if (next <= LAST_CODE_POINT)
      return (
        chars.join('') + String.fromCodePoint(next === SURROGATES.first ? SURROGATES.after : next)
      );
  }
  return null;
}

export type PrefixColumn = 'username_key' | 'full_name_key' | 'last_name_key';

/** Members whose key starts with `prefix`: an index range on both databases (byte order). */
export function byPrefix(
  db: Db,
  column: PrefixColumn,
  prefix: string,
  limit: number,
): Promise<UserRow[]> {
  const end = prefixEnd(prefix);
  let query = db.selectFrom('users').selectAll().where(column, '>=', prefix);
  if (end !== null) query = query.where(column, '<', end);
  return query.orderBy(column).limit(limit).execute();
}

/** Escapes LIKE's wildcards so the text matches itself. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Up to `limit` members whose "username first last" contains `text` (3 or more characters), in
 * username order: pg_trgm's GIN index on PostgreSQL, the FTS5 trigram table on SQLite.
 *
 * Which members make the cut is left to the index, not to an ORDER BY: ordering every match of a
 * common substring (thousands at 100,000 members) before the limit cost 50–150 ms on SQLite and
 * several ms on PostgreSQL, against under a millisecond for taking the first `limit`.
 */
export async function byContains(
  db: Db,
  dialect: Dialect,
  text: string,
  limit: number,
): Promise<UserRow[]> {
  const rows =
    dialect === 'postgres'
      ? await db
          .selectFrom('users')
          .selectAll()
          .where(sql<boolean>`search_text like ${`%${likeLiteral(text)}%`}`)
          .limit(limit)
          .execute()
      : // A quoted FTS5 phrase is a literal substring to the trigram tokenizer (LIKE there takes no
        // ESCAPE, and a pattern with wildcards and no three-character literal run scans the table).
        await db
          .selectFrom('users_search')
          .innerJoin('users', 'users.id', 'users_search.user_id')
          .selectAll('users')
          .where(sql<boolean>`users_search match ${`"${text.replace(/"/g, '""')}"`}`)
          .where(sql<boolean>`instr(users.search_text, ${text}) > 0`)
          .limit(limit)
          .execute();
  return rows.sort((a, b) =>
    a.username_key < b.username_key ? -1 : a.username_key > b.username_key ? 1 : 0,
  );
}
