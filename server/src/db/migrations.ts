import type { Database } from './schema.ts';
import {
  type Kysely,
  type Migration,
  PostgresAdapter,
  type MigrationProvider,
  Migrator,
  sql,
} from 'kysely';

/**
 * One migration set for both dialects: portable column types (text, integer) everywhere, and only
 * the search indexes differ (pg_trgm on PostgreSQL, an FTS5 trigram table on SQLite).
 */
const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
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
      await db.schema
        .createIndex('sessions_expires_at')
        .on('sessions')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sessions').execute();
      await db.schema.dropTable('users').execute();
    },
  },
};

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

migrations['0002_friends_search'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('friendships')
      .addColumn('pair_key', 'text', (c) => c.primaryKey())
      .addColumn('requester_id', 'text', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('addressee_id', 'text', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('friendships_addressee')
      .on('friendships')
      .columns(['addressee_id', 'status', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('friendships_requester')
      .on('friendships')
      .columns(['requester_id', 'status', 'updated_at'])
      .execute();

    for (const column of ['full_name_key', 'last_name_key', 'search_text']) {
      await db.schema
        .alterTable('users')
        .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
        .execute();
    }
    await sql`update users set
      full_name_key = lower(trim(first_name || ' ' || last_name)),
      last_name_key = lower(last_name),
      search_text = lower(username || ' ' || first_name || ' ' || last_name)`.execute(db);

    if (isPostgres(db)) {
      // Byte order makes a prefix a plain index range, whatever the server's locale.
      for (const column of ['username_key', 'full_name_key', 'last_name_key']) {
        await sql`alter table users alter column ${sql.ref(column)} type text collate "C"`.execute(
          db,
        );
      }
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index users_search_trgm on users using gin (search_text gin_trgm_ops)`.execute(
        db,
      );
    } else {
      await sql`create virtual table users_search using fts5(user_id unindexed, search_text, tokenize = 'trigram')`.execute(
        db,
      );
      await sql`insert into users_search (user_id, search_text) select id, search_text from users`.execute(
        db,
      );
      await sql`create trigger users_search_insert after insert on users begin
        insert into users_search (user_id, search_text) values (new.id, new.search_text); end`.execute(
        db,
      );
      await sql`create trigger users_search_update after update of search_text on users begin
        delete from users_search where user_id = old.id;
        insert into users_search (user_id, search_text) values (new.id, new.search_text); end`.execute(
        db,
      );
      await sql`create trigger users_search_delete after delete on users begin
        delete from users_search where user_id = old.id; end`.execute(db);
    }
    await db.schema
      .createIndex('users_full_name_key')
      .on('users')
      .column('full_name_key')
      .execute();
    await db.schema
      .createIndex('users_last_name_key')
      .on('users')
      .column('last_name_key')
      .execute();
  },
};

migrations['0003_gallery'] = {
  async up(db: Kysely<unknown>) {
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
  },
};

migrations['0004_notifications'] = {
  async up(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    await db.schema
      .createTable('notifications')
      .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
        postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('recipient_id', 'text', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('link', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('request_id', 'text')
      .addColumn('image_id', 'text')
      .addColumn('read_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('notifications_recipient')
      .on('notifications')
      .columns(['recipient_id', 'id'])
      .execute();
    await db.schema
      .createIndex('notifications_request')
      .on('notifications')
      .columns(['recipient_id', 'type', 'request_id'])
      .execute();
  },
};

migrations['0005_push'] = {
  async up(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    await db.schema
      .createTable('push_subscriptions')
      .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
        postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // The session that registered the device: revoking it (logout, a password change) removes it.
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('push_subscriptions_user')
      .on('push_subscriptions')
      .columns(['user_id', 'updated_at'])
      .execute();
    await db.schema
      .createIndex('push_subscriptions_session')
      .on('push_subscriptions')
      .column('session_id')
      .execute();
    await db.schema
      .createTable('server_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};

// The media sweep asks which avatars a member row names, a page of keys at a time.
migrations['0006_avatar_lookup'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('users_profile_image')
      .on('users')
      .column('profile_image')
      .execute();
  },
};

migrations['0007_relay_lease'] = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('relay_lease')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      // Milliseconds since the epoch by the database's clock, the one clock every node shares.
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('held_since', 'text', (c) => c.notNull())
      .addColumn('cursor', 'integer')
      .addColumn('progress', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

export { sql };
