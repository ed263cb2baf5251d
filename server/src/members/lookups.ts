/**
 * Finding a member whatever blocks say: by id, by username, or by what a login form names (a
 * username or an email). Lookups for one viewer, which find no blocked member, are in blocks.ts.
 */
import type { Db } from '../db/index.ts';
import type { UserRow } from '../db/schema.ts';
import { usernameKey } from './keys.ts';

export function memberById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function memberByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
}

/** An identifier is a username or an email; both keys are lower-cased alike. */
export function memberByIdentifier(db: Db, identifier: string): Promise<UserRow | undefined> {
  const key = usernameKey(identifier);
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username_key', '=', key), eb('email_key', '=', key)]))
    .executeTakeFirst();
}
