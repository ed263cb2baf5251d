import { type Kysely } from 'kysely';

/**
 * Deleting an account (docs/product.md "Leaving") finds the notifications a member caused and
 * those about their photos, and every member deletion checks the actor's foreign key: without
 * these, each is a scan of the whole notifications table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('notifications_actor')
    .on('notifications')
    .column('actor_id')
    .execute();
  await db.schema
    .createIndex('notifications_image')
    .on('notifications')
    .column('image_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_image').execute();
  await db.schema.dropIndex('notifications_actor').execute();
}
