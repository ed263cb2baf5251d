import { type Kysely } from 'kysely';

// The media sweep asks which avatars a member row names, a page of keys at a time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_profile_image').on('users').column('profile_image').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_profile_image').execute();
}
