import { type Kysely, sql } from 'kysely';

/**
 * One image per place in a member's gallery (docs/decisions.md "Saved order and folders").
 * Concurrent uploads could give two images the same position; those galleries are numbered
 * again first, in the order they were shown (position, newest first, id), so the index can be
 * built on any existing database without changing what members see.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const owners = await sql<{ owner_id: string }>`
    select distinct owner_id from gallery_images
    group by owner_id, position having count(*) > 1`.execute(db);
  for (const { owner_id: ownerId } of owners.rows) {
    const rows = await sql<{ id: string }>`
      select id from gallery_images where owner_id = ${ownerId}
      order by position, created_at desc, id`.execute(db);
    for (const [index, row] of rows.rows.entries())
      await sql`update gallery_images set position = ${index} where id = ${row.id}`.execute(db);
  }
  await db.schema
    .createIndex('gallery_images_owner_position')
    .on('gallery_images')
    .columns(['owner_id', 'position'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gallery_images_owner_position').execute();
}
