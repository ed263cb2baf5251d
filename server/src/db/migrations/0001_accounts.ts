import { type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('birthday', 'text', (c) => c.notNull())
    .addColumn('profile_image', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interests', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('referral', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('referral_code', 'text', (c) => c.notNull().unique())
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('normal1'))
    .addColumn('favorite_quote', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('security_question', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('security_answer_hash', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('users').execute();
}
