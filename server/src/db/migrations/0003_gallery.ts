import { type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('gallery_images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('display_file', 'text', (c) => c.notNull().unique())
    .addColumn('thumb_file', 'text', (c) => c.notNull().unique())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('folder', 'text', (c) => c.notNull().defaultTo('All'))
    .addColumn('caption', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('gallery_images_owner_order')
    .on('gallery_images')
    .columns(['owner_id', 'position', 'created_at'])
    .execute();
  await db.schema
    .createTable('image_reactions')
    .addColumn('image_id', 'text', (c) =>
      c.notNull().references('gallery_images.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('image_reactions_pk', ['image_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('image_reactions_user')
    .on('image_reactions')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('image_reactions').execute();
  await db.schema.dropTable('gallery_images').execute();
}
