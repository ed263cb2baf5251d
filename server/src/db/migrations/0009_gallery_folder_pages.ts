import { type Kysely } from 'kysely';

/**
 * Pages of one folder in saved order (docs/decisions.md "Saved order and folders"): the images of
 * an owner's folder after a position, read from an index in order rather than by sorting the whole
 * folder. The whole gallery's pages use the unique (owner, position) index of 0008, which makes the
 * older (owner, position, created at) index redundant: it is dropped, one index less to write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('gallery_images_owner_folder_position')
    .on('gallery_images')
    .columns(['owner_id', 'folder', 'position'])
    .execute();
  await db.schema.dropIndex('gallery_images_owner_order').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('gallery_images_owner_order')
    .on('gallery_images')
    .columns(['owner_id', 'position', 'created_at'])
    .execute();
  await db.schema.dropIndex('gallery_images_owner_folder_position').execute();
}
