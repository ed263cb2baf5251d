import { type Kysely, sql } from 'kysely';

/**
 * The moderators' Suspended tab lists suspended members, latest first (docs/product.md
 * "Moderation"): a partial index holds just them, in the list's order, so the list reads
 * its rows and no more instead of scanning and sorting every member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_suspended')
    .on('users')
    .columns(['suspended_at', 'id'])
    .where(sql.ref('suspended_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_suspended').execute();
}
