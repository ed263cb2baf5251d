/**
 * The query plans of a gallery page on both databases, for a member with 40,000 images among
 * 3 members: the page with and without a folder and a cursor, the counts, the folder list and the
 * reactions of a page, as a member who blocked another reads them. `npx tsx bench/gallery-explain.ts` (PostgreSQL from PG_ADMIN_URL, by default
 * postgres://postgres@127.0.0.1:5432/postgres). Writes bench/results/gallery-explain.md.
 */
import { randomUUID } from 'node:crypto';
import { type CompiledQuery, sql } from 'kysely';
import { createDatabase, type Db } from '../server/src/db/index.ts';
import { migrateToLatest } from '../server/src/db/migrations.ts';
import { idVisibleTo } from '../server/src/members/blocks.ts';
import { writeReport } from './common.ts';
import { freshBenchConfig, insertInBatches } from './gallery-fixtures.ts';

const IMAGES = 40_000;
const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function seed(db: Db): Promise<{ owner: string; viewer: string; ids: string[] }> {
  const now = new Date().toISOString();
  const users = Array.from({ length: 3 }, (_, i) => ({
    id: randomUUID(),
    username: `explain${i}`,
  }));
  for (const user of users)
    await db
      .insertInto('users')
      .values({
        id: user.id,
        username: user.username,
        username_key: user.username,
        email: `${user.username}@x.test`,
        email_key: `${user.username}@x.test`,
        password_hash: 'x',
        first_name: 'E',
        last_name: 'X',
        birthday: '1990-01-01',
        profile_image: '',
        interests: '[]',
        referral: '',
        referral_code: user.username,
        theme: 'normal1',
        favorite_quote: '',
        security_question: '',
        security_answer_hash: '',
        created_at: now,
        updated_at: now,
      })
      .execute();
  const ids: string[] = [];
  await db.transaction().execute(async (trx) => {
    for (const [u, user] of users.entries()) {
      const count = u === 0 ? IMAGES : 2_000;
      const rows = Array.from({ length: count }, (_, i) => ({
        id: randomUUID(),
        owner_id: user.id,
        display_file: `${user.id}-${i}.webp`,
        thumb_file: `${user.id}-${i}-t.webp`,
        width: 1600,
        height: 1200,
        bytes: 1,
        folder: ['All', 'Trips', 'Pets', 'Family'][i % 4] ?? 'All',
        caption: '',
        position: -i,
        created_at: now,
      }));
      if (u === 0) ids.push(...rows.map((row) => row.id).reverse());
      await insertInBatches(trx, 'gallery_images', rows);
      const reactions = rows
        .filter((_, i) => i % 5 === 0)
        .flatMap((row) =>
          users.map((reactor) => ({
            image_id: row.id,
            user_id: reactor.id,
            kind: 'like' as const,
            created_at: now,
          })),
        );
      await insertInBatches(trx, 'image_reactions', reactions);
    }
    // The viewer blocked the third member, whose reactions they then read without their id.
    await trx
      .insertInto('blocks')
      .values({ blocker_id: users[1]?.id ?? '', blocked_id: users[2]?.id ?? '', created_at: now })
      .execute();
  });
  return { owner: users[0]?.id ?? '', viewer: users[1]?.id ?? '', ids };
}

/** Every query a page and the folder list run, compiled as the app sends them. */
function queries(db: Db, owner: string, viewer: string, ids: string[]): [string, CompiledQuery][] {
  // The repository's builders run against a recorder that keeps the SQL instead of sending it.
  const page = (folder?: string, after?: number) =>
    db
      .selectFrom('gallery_images')
      .selectAll()
      .where('owner_id', '=', owner)
      .$if(folder !== undefined, (q) => q.where('folder', '=', folder ?? ''))
      .$if(after !== undefined, (q) => q.where('position', '>', after ?? 0))
      .orderBy('position')
      .limit(61)
      .compile();
  const count = (folder?: string) =>
    db
      .selectFrom('gallery_images')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('owner_id', '=', owner)
      .$if(folder !== undefined, (q) => q.where('folder', '=', folder ?? ''))
      .compile();
  return [
    ['First page, whole gallery', page()],
    ['Last page, whole gallery (cursor)', page(undefined, -IMAGES + 20)],
    ['First page of a folder', page('Trips')],
    ['A page of a folder after a cursor', page('Trips', -IMAGES / 2)],
    ['total, whole gallery', count()],
    ['total, one folder', count('Trips')],
    [
      'Folder list with counts',
      db
        .selectFrom('gallery_images')
        .select((eb) => ['folder', eb.fn.countAll().as('count')])
        .where('owner_id', '=', owner)
        .groupBy('folder')
        .orderBy('folder')
        .compile(),
    ],
    [
      'Likes received',
      db
        .selectFrom('image_reactions')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('image_id', 'in', (eb) =>
          eb.selectFrom('gallery_images').select('id').where('owner_id', '=', owner),
        )
        .where('kind', '=', 'like')
        .compile(),
    ],
    [
      'Reactions of a page of 60, a blocked member’s counted without their id',
      db
        .selectFrom('image_reactions')
        .select((eb) => [
          'image_reactions.image_id',
          'image_reactions.kind',
          idVisibleTo(eb.ref('image_reactions.user_id'), viewer).as('user_id'),
        ])
        .where('image_reactions.image_id', 'in', ids.slice(0, 60))
        .orderBy('image_reactions.created_at')
        .compile(),
    ],
  ];
}

async function explain(db: Db, dialect: 'sqlite' | 'postgres', query: CompiledQuery) {
  const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain (analyze, costs off) ';
  const result = await db.executeQuery<Record<string, unknown>>({
    ...query,
    sql: prefix + query.sql,
  });
  return dialect === 'sqlite'
    ? result.rows.map((row) => `${'  '.repeat(Number(row.parent) ? 1 : 0)}${String(row.detail)}`)
    : result.rows.map((row) => String(row['QUERY PLAN']));
}

const sections: string[] = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  const { config, remove } = await freshBenchConfig('explain', {
    postgresUrl: dialect === 'postgres' ? ADMIN_URL : undefined,
  });
  const { db } = createDatabase(config);
  try {
    await migrateToLatest(db);
    const { owner, viewer, ids } = await seed(db);
    await sql`analyze`.execute(db);
    sections.push(`## ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}\n`);
    for (const [name, query] of queries(db, owner, viewer, ids)) {
      const plan = await explain(db, dialect, query);
      sections.push(
        `### ${name}\n\n\`\`\`sql\n${query.sql}\n\`\`\`\n\n\`\`\`\n${plan.join('\n')}\n\`\`\`\n`,
      );
    }
  } finally {
    await db.destroy();
    await remove();
  }
}

const markdown = `# Gallery query plans

\`npx tsx bench/gallery-explain.ts\` on ${new Date().toISOString().slice(0, 10)}: one member with
${IMAGES.toLocaleString('en')} images (four folders), two with 2,000, likes on every fifth image
from each, the second member blocking the third (the reactions are read as the second reads them),
\`ANALYZE\` run. SQLite: \`EXPLAIN QUERY PLAN\`; PostgreSQL: \`EXPLAIN (ANALYZE, COSTS OFF)\`.
Pages read the unique (owner_id, position) index or (owner_id, folder, position) in order and stop
after limit + 1 rows; no plan sorts the gallery.

${sections.join('\n')}`;
writeReport('gallery-explain', markdown);
console.log(markdown);
