/** The schema's migrations, one file each, run by Kysely's Migrator on both dialects. */
import fs from 'node:fs';
import { NO_MIGRATIONS, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MIGRATION_FOLDER, createMigrator, migrateToLatest } from '../src/db/migrations.ts';
import type { Db } from '../src/db/index.ts';
import { forEachDialect, freshDatabase } from './helpers.ts';

/** The names databases created by earlier releases hold in `kysely_migration`, in order. */
const RECORDED = [
  '0001_accounts',
  '0002_friends_search',
  '0003_gallery',
  '0004_notifications',
  '0005_push',
  '0006_avatar_lookup',
  '0007_relay_lease',
  '0008_gallery_position_unique',
  '0009_gallery_folder_pages',
  '0010_safety',
  '0011_leaving_lookups',
  '0012_demo_members',
  '0013_block_names',
  '0014_suspended_lookup',
  '0015_idempotency_keys',
  '0016_gallery_upload_keys',
];

const TABLES = [
  'blocks',
  'friendships',
  'gallery_images',
  'idempotency_keys',
  'image_reactions',
  'notifications',
  'push_subscriptions',
  'relay_lease',
  'reports',
  'server_settings',
  'sessions',
  'users',
];

/** A member row as the migrations before 0010 know it, changed last at `updatedAt`. */
async function insertMember(db: Db, id: string, updatedAt: string): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id,
      username: id,
      username_key: id,
      email: `${id}@example.com`,
      email_key: `${id}@example.com`,
      password_hash: 'x',
      first_name: '',
      last_name: '',
      birthday: '2000-01-01',
      profile_image: '',
      interests: '[]',
      referral: '',
      referral_code: `code-${id}`,
      theme: 'normal1',
      favorite_quote: '',
      security_question: '',
      security_answer_hash: '',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: updatedAt,
    })
    .execute();
}

async function recorded(db: Db): Promise<string[]> {
  const rows = await sql<{
    name: string;
  }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((row) => row.name);
}

/** The schema's own tables (not Kysely's bookkeeping, not SQLite's FTS shadow tables). */
async function tables(db: Db): Promise<string[]> {
  const all = await db.introspection.getTables();
  return all
    .map((table) => table.name)
    .filter((name) => !name.startsWith('kysely_') && !name.startsWith('users_search'))
    .sort();
}

it('keeps one file per migration, named as the databases record them', () => {
  const files = fs
    .readdirSync(MIGRATION_FOLDER)
    .map((file) => file.replace(/\.ts$/, ''))
    .sort();
  expect(files.slice(0, RECORDED.length)).toEqual(RECORDED);
});

forEachDialect((dialect) => {
  let current: Awaited<ReturnType<typeof freshDatabase>>;
  beforeEach(async () => {
    current = await freshDatabase(dialect);
  });
  afterEach(async () => {
    await current.close();
  });

  it('builds the schema and records every migration by its released name', async () => {
    await migrateToLatest(current.db);
    expect((await recorded(current.db)).slice(0, RECORDED.length)).toEqual(RECORDED);
    expect(await tables(current.db)).toEqual(TABLES);
  });

  it('runs nothing again on a database that is up to date, and keeps its rows', async () => {
    await migrateToLatest(current.db);
    await current.db
      .insertInto('server_settings')
      .values({ key: 'marker', value: 'kept', updated_at: '2026-01-01T00:00:00.000Z' })
      .execute();
    const { error, results } = await createMigrator(current.db).migrateToLatest();
    expect(error).toBeUndefined();
    expect(results).toEqual([]);
    const rows = await current.db.selectFrom('server_settings').select(['key', 'value']).execute();
    expect(rows).toEqual([{ key: 'marker', value: 'kept' }]);
  });

  it('migrates down to an empty schema and up again', async () => {
    await migrateToLatest(current.db);
    const down = await createMigrator(current.db).migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(down.results?.map((result) => [result.migrationName, result.status])).toEqual(
      [...RECORDED].reverse().map((name) => [name, 'Success']),
    );
    expect(await tables(current.db)).toEqual([]);
    expect(await recorded(current.db)).toEqual([]);

    await migrateToLatest(current.db);
    expect(await tables(current.db)).toEqual(TABLES);
  });

  it('numbers again a gallery with two images on one place, keeping its order, before 0008', async () => {
    const migrator = createMigrator(current.db);
    expect((await migrator.migrateTo('0007_relay_lease')).error).toBeUndefined();
    const now = '2026-01-01T00:00:00.000Z';
    for (const id of ['u1', 'u2']) await insertMember(current.db, id, now);
    // u1 as two concurrent uploads left it: c and b on one place, shown newest first.
    const images: [string, string, number, string][] = [
      ['d', 'u1', -3, '2026-01-04T00:00:00.000Z'],
      ['c', 'u1', -2, '2026-01-03T00:00:00.000Z'],
      ['b', 'u1', -2, '2026-01-02T00:00:00.000Z'],
      ['a', 'u1', -1, '2026-01-01T00:00:00.000Z'],
      ['x', 'u2', -1, now],
    ];
    for (const [id, owner, position, created] of images)
      await current.db
        .insertInto('gallery_images')
        .values({
          id,
          owner_id: owner,
          display_file: `${id}.webp`,
          thumb_file: `${id}-thumb.webp`,
          width: 1,
          height: 1,
          bytes: 1,
          folder: 'All',
          caption: '',
          position,
          created_at: created,
        })
        .execute();

    await migrateToLatest(current.db);

    const rows = await current.db
      .selectFrom('gallery_images')
      .select(['id', 'owner_id', 'position'])
      .orderBy('owner_id')
      .orderBy('position')
      .execute();
    expect(rows.map((row) => [row.owner_id, row.id])).toEqual([
      ['u1', 'd'],
      ['u1', 'c'],
      ['u1', 'b'],
      ['u1', 'a'],
      ['u2', 'x'],
    ]);
    const places = rows.filter((row) => row.owner_id === 'u1').map((row) => row.position);
    expect(new Set(places).size).toBe(4);
    // A gallery without a shared place keeps its positions as they were.
    expect(rows.find((row) => row.id === 'x')?.position).toBe(-1);
  });

  it('names the members of blocks made before 0012 as their blockers could have seen them', async () => {
    const migrator = createMigrator(current.db);
    expect((await migrator.migrateTo('0011_leaving_lookups')).error).toBeUndefined();
    const day = (n: number) => `2026-01-0${n}T00:00:00.000Z`;
    // me blocked plain; fled blocked me, then changed their profile; stayed blocked me and did not.
    await insertMember(current.db, 'me', day(1));
    await insertMember(current.db, 'plain', day(5));
    await insertMember(current.db, 'fled', day(4));
    await insertMember(current.db, 'stayed', day(1));
    const blocks: [string, string, string][] = [
      ['me', 'plain', day(2)],
      ['fled', 'me', day(2)],
      ['me', 'fled', day(3)],
      ['stayed', 'me', day(2)],
      ['me', 'stayed', day(3)],
    ];
    for (const [blocker, blocked, at] of blocks)
      await sql`insert into blocks (blocker_id, blocked_id, created_at)
        values (${blocker}, ${blocked}, ${at})`.execute(current.db);

    await migrateToLatest(current.db);

    const rows = await current.db
      .selectFrom('blocks')
      .select(['blocker_id', 'blocked_id', 'blocked_username'])
      .orderBy('blocker_id')
      .orderBy('blocked_id')
      .execute();
    expect(rows.map((row) => [row.blocker_id, row.blocked_id, row.blocked_username])).toEqual([
      ['fled', 'me', 'me'],
      ['me', 'fled', null],
      ['me', 'plain', 'plain'],
      ['me', 'stayed', 'stayed'],
      ['stayed', 'me', 'me'],
    ]);
  });
});
