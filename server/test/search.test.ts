/** GET /api/users/search (docs/product.md "Header search"; docs/decisions.md "Search fills in friend flags"). */
import { CompiledQuery } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../src/contracts/friends.ts';
import { searchMembers } from '../src/features/friends/search.ts';
import { mediaUrlFor } from '../src/media/index.ts';
import {
  type Member,
  asBearer,
  asCookie,
  friendAction,
  signupMembers,
  forEachApp,
  patchProfile,
} from './helpers.ts';

/** username, first name, last name */
const FIXTURE: [string, string, string][] = [
  ['vega.viewer', 'Vega', 'Watcher'],
  ['nova.k', 'Kira', 'Stone'],
  ['casanova', 'Gia', 'Como'],
  ['countess', 'Ada', 'Lovelace'],
  ['Zed.Upper', 'Quill', 'Zephyrine'],
  ['a_b', 'Under', 'Score'],
  ['axb', 'Cross', 'Letter'],
  ['zz_top', 'Beard', 'Band'],
  ['zzxtop', 'Shaved', 'Band'],
  ['pct.one', 'Sure', 'Ninety%Sure'],
  ['pct.two', 'Sure', 'NinetyxSure'],
  ['slash.one', 'Back', 'Back\\Slash'],
  ['quote.one', 'Dee', 'O"Neil'],
  ['zr_s', 'Last', 'Inline'],
  ['flag.friend', 'Flo', 'Flagg'],
  ['flag.pend', 'Flo', 'Flagg'],
  ['flag.inc', 'Flo', 'Flagg'],
  ['flag.none', 'Flo', 'Flagg'],
  // 26 members whose text holds "r?s" ("fillNN ros …") and sorts before zr_s.
  ...Array.from({ length: 26 }, (_, i): [string, string, string] => [
    `fill${String(i + 1).padStart(2, '0')}`,
    'Ros',
    'Filler',
  ]),
];

forEachApp((t, dialect) => {
  const by = new Map<string, Member>();
  let viewer: Member;

  beforeAll(async () => {
    const members = await signupMembers(t.app, FIXTURE.length, (i) => {
      const [username, firstName, lastName] = FIXTURE[i] as [string, string, string];
      return { username, firstName, lastName };
    });
    for (const member of members) by.set(member.username, member);
    viewer = by.get('vega.viewer') as Member;
    const member = (name: string) => by.get(name) as Member;
    await friendAction(t.app, viewer, 'request', member('flag.friend'));
    await friendAction(t.app, member('flag.friend'), 'accept', viewer);
    await friendAction(t.app, viewer, 'request', member('flag.pend'));
    await friendAction(t.app, member('flag.inc'), 'request', viewer);
  });

  const search = (query: Record<string, string>, member: Member = viewer) =>
    t.app.inject({ method: 'GET', url: '/api/users/search', query, headers: asBearer(member) });
  const found = async (q: string, member: Member = viewer) => {
    const response = await search({ q }, member);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ users: SearchResult[] }>().users;
  };
  const names = async (q: string, member?: Member) =>
    (await found(q, member)).map((row) => row.username);
  /** What flagsOf answers for the flag.* members, as beforeAll relates them to the viewer. */
  const FLAG_RELATIONS = {
    'flag.friend': [true, false, false],
    'flag.pend': [false, true, false],
    'flag.inc': [false, false, true],
    'flag.none': [false, false, false],
  };
  /** Each row's relation to the viewer by username: friends, asked by the viewer, asking them. */
  const flagsOf = (rows: SearchResult[]) =>
    Object.fromEntries(
      rows.map((row) => [row.username, [row.isFriend, row.requestPending, row.incomingPending]]),
    );

  describe('a blank query', () => {
    it.each([
      ['an empty q', { q: '' }],
      ['a q of spaces', { q: '   ' }],
      ['no q at all', {}],
    ])('answers {users: []} to %s', async (_name, query) => {
      const response = await search(query);

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ users: [] });
    });
  });

  describe('the last code points', () => {
    it.each([
      ['ending in U+10FFFF', 'ada\u{10ffff}'],
      ['of U+10FFFF alone', '\u{10ffff}\u{10ffff}'],
      ['ending just below the surrogates', 'ada\ud7ff'],
    ])('answers a query %s, which no member matches', async (_name, q) => {
      expect(await found(q)).toEqual([]);
    });
  });

  describe('matching', () => {
    it.each([
      ['ZED.U', 'the username, in another case'],
      ['quill', 'the first name'],
      ['ZEPHY', 'the last name'],
      ['quill zeph', 'the full name'],
      ['phyri', 'a part inside the last name'],
    ])('finds Zed.Upper by "%s" (%s)', async (q) => {
      expect(await names(q)).toEqual(['Zed.Upper']);
    });

    it('finds a member by the start of their full name, "ada lov"', async () => {
      expect(await names('ada lov')).toEqual(['countess']);
    });

    it('treats runs of spaces in the query as one', async () => {
      expect(await names('  Ada   LOV ')).toEqual(['countess']);
    });

    it('answers each row with the summary fields and the three flags only', async () => {
      const [row] = await found('countess');
      const countess = by.get('countess') as Member;

      expect(row).toEqual({
        id: countess.user.id,
        username: 'countess',
        fullName: 'Ada Lovelace',
        profileImage: countess.user.profileImage,
        isFriend: false,
        requestPending: false,
        incomingPending: false,
      });
    });
  });

  describe('ranking and limits', () => {
    it('puts prefix matches before substring matches: "nov" finds nova.k, then casanova', async () => {
      expect(await names('nov')).toEqual(['nova.k', 'casanova']);
    });

    it('answers at most 12 rows', async () => {
      expect(await found('fill')).toHaveLength(12);
    });

    it('answers at most limit rows when limit is below 12', async () => {
      const response = await search({ q: 'fill', limit: '5' });

      expect(response.json<{ users: SearchResult[] }>().users).toHaveLength(5);
    });

    it.each(['13', '0', 'many'])('answers 400 {error} to limit=%s', async (limit) => {
      const response = await search({ q: 'fill', limit });

      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json<object>())).toEqual(['error']);
    });
  });

  describe('friend flags', () => {
    it('marks each row with the viewer’s relation to that member', async () => {
      expect(flagsOf(await found('flag.'))).toEqual(FLAG_RELATIONS);
    });

    it('shows the same relations from the other side', async () => {
      const rows = await found('vega.viewer', by.get('flag.inc'));

      expect(rows[0]).toMatchObject({
        isFriend: false,
        requestPending: true,
        incomingPending: false,
      });
    });

    it('lists the viewer themself with every flag false', async () => {
      const [row] = await found('vega.viewer');

      expect(row).toMatchObject({
        id: viewer.user.id,
        isFriend: false,
        requestPending: false,
        incomingPending: false,
      });
    });
  });

  describe('round trips', () => {
    /** Runs one search on the app's database, recording every statement it sends. */
    const counted = async (q: string) => {
      const statements: CompiledQuery[] = [];
      // A copy of the app's Kysely with an executor of its own, sending each statement it runs
      // through the app's connections (a plugin with nothing to change makes the copy).
      const db = t.app.db.withPlugin({
        transformQuery: ({ node }) => node,
        transformResult: ({ result }) => Promise.resolve(result),
      });
      const executor = db.getExecutor();
      const execute = executor.executeQuery.bind(executor);
      executor.executeQuery = (query, ...rest) => {
        statements.push(query);
        return execute(query, ...rest);
      };
      const row = await t.app.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', viewer.user.id)
        .executeTakeFirstOrThrow();
      const rows = await searchMembers(db, t.app.dialect, row, q, 12, mediaUrlFor(undefined));
      return { rows, statements };
    };

    it('asks one statement when prefix matches fill the limit', async () => {
      const { rows, statements } = await counted('fill');

      expect(rows).toHaveLength(12);
      expect(statements).toHaveLength(1);
    });

    it('asks one statement when substring matches are needed too', async () => {
      const { rows, statements } = await counted('nov');

      expect(rows.map((row) => row.username)).toEqual(['nova.k', 'casanova']);
      expect(statements).toHaveLength(1);
    });

    it('asks nothing for a blank query', async () => {
      const { rows, statements } = await counted('  ');

      expect(rows).toEqual([]);
      expect(statements).toHaveLength(0);
    });

    // Each database shows it its own way; a test chosen by dialect rather than skipped on the other.
    const onThisDialect = (only: typeof dialect) => (dialect === only ? it : () => undefined);

    onThisDialect('postgres')(
      'does not look for substrings when prefix matches fill the limit',
      async () => {
        // "ros" starts 26 full names, and is inside the same 26 texts.
        const { rows, statements } = await counted('ros');
        const [statement] = statements as [CompiledQuery];
        const plan = await t.app.db.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain (analyze, costs off, timing off) ${statement.sql}`, [
            ...statement.parameters,
          ]),
        );
        const lines = plan.rows.map((line) => line['QUERY PLAN']);
        const substringScan = lines.findIndex((line) => line.includes('~~'));

        expect(rows).toHaveLength(12);
        expect(substringScan, lines.join('\n')).toBeGreaterThan(-1);
        expect(lines.slice(substringScan - 1, substringScan + 1).join(' ')).toContain(
          'never executed',
        );
      },
    );

    onThisDialect('sqlite')(
      'does not look for substrings when prefix matches fill the limit',
      async () => {
        // The trigram table rejects an unterminated phrase as it starts looking, so the statement
        // with its phrase broken fails exactly when it would have looked.
        const broken = async (q: string) => {
          const [statement] = (await counted(q)).statements as [CompiledQuery];
          const phrase = `"${q}"`;
          expect(statement.parameters).toContain(phrase);
          const parameters = statement.parameters.map((value) =>
            value === phrase ? `"${q}` : value,
          );
          return t.app.db.executeQuery(CompiledQuery.raw(statement.sql, parameters));
        };

        await expect(broken('nov')).rejects.toThrow(/unterminated string/);
        expect((await broken('ros')).rows.length).toBeGreaterThanOrEqual(12);
      },
    );
  });

  describe('friend flags on substring matches', () => {
    it('marks rows found inside names as well as by prefix', async () => {
      expect(flagsOf(await found('lagg'))).toEqual(FLAG_RELATIONS);
    });
  });

  describe('wildcards and quotes in the query', () => {
    it.each([
      ['a_b', ['a_b'], 'an underscore at the start of a username'],
      ['z_t', ['zz_top'], 'an underscore inside a username'],
      ['y%s', ['pct.one'], 'a percent sign inside a last name'],
      ['k\\s', ['slash.one'], 'a backslash inside a last name'],
      ['o"n', ['quote.one'], 'a double quote inside a last name'],
      ['r%s', [], 'a percent sign nobody has'],
    ])('matches "%s" literally (%s)', async (q, expected) => {
      expect(await names(q)).toEqual(expected);
    });

    it('finds the literal match even when many members match the wildcard reading', async () => {
      // "r_s" read as a pattern matches all 26 fill members ("ros") before zr_s.
      expect(await names('r_s')).toEqual(['zr_s']);
    });
  });

  describe('access', () => {
    it('answers 401 without a session', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/users/search?q=nova' });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Please sign in.' });
    });
  });

  describe('after a member renames themself', () => {
    it('finds them under the new name and no longer under the old one', async () => {
      const [member] = await signupMembers(t.app, 1, () => ({
        username: 'orville.q',
        firstName: 'Orville',
        lastName: 'Quartz',
      }));

      const patch = await patchProfile(t.app, asCookie(member), {
        username: 'wilbur.q',
        firstName: 'Wilbur',
      });
      expect(patch.statusCode, patch.body).toBe(200);

      expect(await names('orville')).toEqual([]);
      expect(await names('ville.q')).toEqual([]);
      expect(await names('wilbur')).toEqual(['wilbur.q']);
      expect(await names('lbur.q')).toEqual(['wilbur.q']);
      expect(await names('quartz')).toEqual(['wilbur.q']);
      expect((await found('wilbur'))[0]?.fullName).toBe('Wilbur Quartz');
    });
  });
});
