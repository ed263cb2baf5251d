import { type Kysely } from 'kysely';

/**
 * Demo members (`npm run seed`) are marked, so that they never take the install's first-member
 * mark nor count as members who came before it (docs/decisions.md "Demo members").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('is_demo').execute();
}
