import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether a migration runs on PostgreSQL; the rest of the schema is the same on SQLite. */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
