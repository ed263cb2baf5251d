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
];

const TABLES = [
  'friendships',
  'gallery_images',
  'image_reactions',
  'notifications',
  'push_subscriptions',
  'relay_lease',
  'server_settings',
  'sessions',
  'users',
];

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
});
