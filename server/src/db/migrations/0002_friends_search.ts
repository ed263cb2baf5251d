import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
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
  await db.schema.createIndex('users_full_name_key').on('users').column('full_name_key').execute();
  await db.schema.createIndex('users_last_name_key').on('users').column('last_name_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_last_name_key').execute();
  await db.schema.dropIndex('users_full_name_key').execute();
  if (isPostgres(db)) {
    await db.schema.dropIndex('users_search_trgm').execute();
  } else {
    for (const trigger of ['users_search_delete', 'users_search_update', 'users_search_insert']) {
      await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
    }
    await db.schema.dropTable('users_search').execute();
  }
  for (const column of ['search_text', 'last_name_key', 'full_name_key']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  await db.schema.dropTable('friendships').execute();
}
