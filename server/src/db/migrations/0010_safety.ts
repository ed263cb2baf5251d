import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

/**
 * Members' safety and ownership (docs/product.md "Safety"): who moderates, who is suspended and
 * why, when a member last downloaded their data, blocks between members and reports to moderators.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .alterTable('users')
    .addColumn('is_moderator', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('suspended_at', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('suspension_reason', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('users').addColumn('last_export_at', 'text').execute();

  // One row per direction: either member may block the other, and each block is undone alone.
  await db.schema
    .createTable('blocks')
    .addColumn('blocker_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
    .execute();
  await db.schema.createIndex('blocks_blocked').on('blocks').column('blocked_id').execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // Reports a member made go with their account; reports about them stay for moderators.
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('target_kind', 'text', (c) => c.notNull())
    /** The image's id for a photo, the member's id for a member. */
    .addColumn('target_id', 'text', (c) => c.notNull())
    /** The member the report is about: the one reported, or the photo's owner. No foreign key. */
    .addColumn('target_user_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('resolution', 'text')
    /** The moderator who resolved it; no foreign key, so it outlives their account. */
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // One open report per reporter and item; once resolved, the same item may be reported again.
  await db.schema
    .createIndex('reports_open_once')
    .on('reports')
    .columns(['reporter_id', 'target_kind', 'target_id'])
    .unique()
    .where(sql.ref('status'), '=', 'open')
    .execute();
  // Open reports newest first (by id); resolved ones latest resolved first (by time, then id).
  await db.schema.createIndex('reports_status').on('reports').columns(['status', 'id']).execute();
  await db.schema
    .createIndex('reports_resolved')
    .on('reports')
    .columns(['status', 'resolved_at', 'id'])
    .execute();
  await db.schema
    .createIndex('reports_target')
    .on('reports')
    .columns(['target_kind', 'target_id', 'status'])
    .execute();
  await db.schema
    .createIndex('reports_target_user')
    .on('reports')
    .columns(['target_user_id', 'status'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reports').execute();
  await db.schema.dropTable('blocks').execute();
  for (const column of ['last_export_at', 'suspension_reason', 'suspended_at', 'is_moderator'])
    await db.schema.alterTable('users').dropColumn(column).execute();
}
