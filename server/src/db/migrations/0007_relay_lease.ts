import { type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('relay_lease')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    // Milliseconds since the epoch by the database's clock, the one clock every node shares.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('held_since', 'text', (c) => c.notNull())
    .addColumn('cursor', 'integer')
    .addColumn('progress', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('relay_lease').execute();
}
