import { type RawBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../../db/index.ts';
import { hiddenFrom } from '../../members/blocks.ts';

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

type PrefixColumn = 'username_key' | 'full_name_key' | 'last_name_key';

/** Prefix matches rank by the key they matched, in this order; substring matches come last. */
const PREFIX_COLUMNS: readonly PrefixColumn[] = ['username_key', 'full_name_key', 'last_name_key'];
const CONTAINS_BRANCH = PREFIX_COLUMNS.length;

/** One candidate row of a search, with the viewer's friendship to that member if any. */
export interface SearchRow {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  profile_image: string;
  /** The index in PREFIX_COLUMNS of the key that matched, or CONTAINS_BRANCH. */
  branch: number | string;
  sort_key: string;
  friend_status: 'pending' | 'accepted' | null;
  friend_requester: string | null;
}

const COLUMNS = sql`id, username, first_name, last_name, profile_image`;

/**
 * Members blocked either way with the viewer are skipped inside every branch, before its limit,
 * so they never take a place of the answer: `hidden` (a CTE of their ids, read once) is what each
 * branch leaves out.
 */
const VISIBLE = sql`users.id not in (select id from hidden)`;

/**
 * Members whose key starts with `prefix`, in key order: an index range on both databases (byte
 * order), less the hidden ones.
 */
function prefixBranch(column: PrefixColumn, branch: number, prefix: string, limit: number) {
  const key = sql.ref(column);
  const end = prefixEnd(prefix);
  const below = end === null ? sql`` : sql` and ${key} < ${end}`;
  return sql`select * from (select ${COLUMNS}, ${sql.lit(branch)} as branch, ${key} as sort_key
    from users where ${key} >= ${prefix}${below} and ${VISIBLE}
    order by ${key} limit ${limit}) as ${sql.id(`p${branch}`)}`;
}

/** Escapes LIKE's wildcards so the text matches itself. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Up to `take` members whose "username first last" contains `text` (3 or more characters):
 * pg_trgm's GIN index on PostgreSQL, the FTS5 trigram table on SQLite. `take` is an expression, so
 * the statement itself decides whether to look at all.
 *
 * Which members make the cut is left to the index, not to an ORDER BY: ordering every match of a
 * common substring (thousands at 100,000 members) before the limit cost 50–150 ms on SQLite and
 * several ms on PostgreSQL, against under a millisecond for taking the first few.
 */
function containsBranch(dialect: Dialect, text: string, take: RawBuilder<unknown>) {
  const branch = sql.lit(CONTAINS_BRANCH);
  return dialect === 'postgres'
    ? sql`select * from (select ${COLUMNS}, ${branch} as branch, username_key as sort_key
        from users where search_text like ${`%${likeLiteral(text)}%`} and ${VISIBLE}
        limit ${take}) as c`
    : // A quoted FTS5 phrase is a literal substring to the trigram tokenizer (LIKE there takes no
      // ESCAPE, and a pattern with wildcards and no three-character literal run scans the table).
      sql`select * from (select users.id, users.username, users.first_name, users.last_name,
          users.profile_image, ${branch} as branch, users.username_key as sort_key
        from users_search join users on users.id = users_search.user_id
        where users_search match ${`"${text.replace(/"/g, '""')}"`}
          and instr(users.search_text, ${text}) > 0 and ${VISIBLE}
        limit ${take}) as c`;
}

/**
 * Every candidate of one search in one statement, in rank order: up to `limit` prefix matches on
 * each key (an index range each), then, when `contains` is set, up to `2 × limit` substring
 * matches, looked for only when the prefix matches hold fewer than `limit` members. Members blocked
 * either way with the viewer are left out by every branch (docs/product.md "Blocking"). Each row
 * comes with the viewer's friendship, found by its pair key. A member matching several ways appears once
 * per way; the caller keeps the first.
 */
export async function searchCandidates(
  db: Db,
  dialect: Dialect,
  viewerId: string,
  text: string,
  limit: number,
  contains: boolean,
): Promise<SearchRow[]> {
  const prefix = sql.join(
    PREFIX_COLUMNS.map((column, branch) => prefixBranch(column, branch, text, limit)),
    sql` union all `,
  );
  const take = sql`(select case when count(distinct id) < ${limit} then ${limit * 2} else 0 end from prefix)`;
  const hits = contains
    ? sql`select * from prefix union all ${containsBranch(dialect, text, take)}`
    : sql`select * from prefix`;
  // Materialized: the substring branch's guard reads the prefix rows too, and SQLite would run
  // the three ranges again for it.
  // A pair key is both ids sorted and joined by ":"; of the two orders only the sorted one exists,
  // so the lookup needs no collation-dependent comparison.
  const { rows } = await sql<SearchRow>`with hidden (id) as materialized ${hiddenFrom(viewerId)},
    prefix as materialized (${prefix}), hits as (${hits})
    select hits.*, f.status as friend_status, f.requester_id as friend_requester
    from hits left join friendships f
      on f.pair_key in (hits.id || ':' || ${viewerId}, ${viewerId} || ':' || hits.id)
    order by hits.branch, hits.sort_key, hits.id`.execute(db);
  return rows;
}
