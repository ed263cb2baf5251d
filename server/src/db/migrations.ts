import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileMigrationProvider, type Kysely, Migrator } from 'kysely';
import type { Database } from './schema.ts';

/**
 * One file per migration in `migrations/`, named `NNNN_what` (the name Kysely records in
 * `kysely_migration`), one set for both dialects: portable column types (text, integer)
 * everywhere, and only the search indexes differ (pg_trgm on PostgreSQL, an FTS5 trigram table on
 * SQLite). A released migration never changes; a change to the schema is a new file.
 *
 * The folder sits beside this module: `server/src/db/migrations/*.ts` when the sources run
 * (tsx, tests), `build/migrations/*.mjs` beside the compiled `build/*.mjs` in production.
 */
export const MIGRATION_FOLDER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

export function createMigrator(db: Kysely<Database>): Migrator {
  return new Migrator({
    db,
    provider: new FileMigrationProvider({ fs, path, migrationFolder: MIGRATION_FOLDER }),
  });
}

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const { error, results } = await createMigrator(db).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
