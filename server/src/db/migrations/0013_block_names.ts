import { type Kysely, sql } from 'kysely';

/**
 * A block keeps the name its member had when they were blocked (docs/decisions.md "The block list
 * names whom one blocked as one knew them"): the list shows that, never their name or picture now.
 * Blocks made before keep today's name where it is one the blocker could have seen: always, but
 * when the member blocked the blocker first and has changed their profile since (a rename, maybe),
 * which leaves the block without a name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('blocks').addColumn('blocked_username', 'text').execute();
  await sql`update blocks set blocked_username = (
      select users.username from users
      where users.id = blocks.blocked_id
        and not exists (select 1 from blocks as back
          where back.blocker_id = blocks.blocked_id and back.blocked_id = blocks.blocker_id
            and back.created_at < users.updated_at))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('blocks').dropColumn('blocked_username').execute();
}
