import { type Kysely, sql } from 'kysely';

/**
 * An upload sent with an `Idempotency-Key` keeps the key on the photo it made, written in the
 * transaction that inserts the photo (docs/decisions.md "Idempotency keys"): a retry whose first
 * run committed but never stored its answer finds that photo instead of making a second one. At
 * most one photo per member and key; photos uploaded without a key hold none and are not indexed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('gallery_images').addColumn('idempotency_key', 'text').execute();
  await db.schema
    .createIndex('gallery_images_owner_idempotency_key')
    .on('gallery_images')
    .columns(['owner_id', 'idempotency_key'])
    .unique()
    .where(sql.ref('idempotency_key'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gallery_images_owner_idempotency_key').execute();
  await db.schema.alterTable('gallery_images').dropColumn('idempotency_key').execute();
}
