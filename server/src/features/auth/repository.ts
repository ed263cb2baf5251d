import type { Db } from '../../db/index.ts';
import type { NewUserRow, SessionRow, UserRow, UserUpdate } from '../../db/schema.ts';
import { emailKey, usernameKey } from '../../members/keys.ts';
import { memberById } from '../../members/lookups.ts';

/** Whether a member other than `exceptUserId` has `value` in `column`. */
async function isTaken(
  db: Db,
  column: 'username_key' | 'email_key' | 'referral_code',
  value: string,
  exceptUserId?: string,
): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(column, '=', value);
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

export function isUsernameTaken(db: Db, username: string, exceptUserId?: string): Promise<boolean> {
  return isTaken(db, 'username_key', usernameKey(username), exceptUserId);
}

export function isEmailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  return isTaken(db, 'email_key', emailKey(email), exceptUserId);
}

export function isReferralCodeTaken(db: Db, code: string): Promise<boolean> {
  return isTaken(db, 'referral_code', code);
}

export async function insertUser(db: Db, row: NewUserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(
  db: Db,
  id: string,
  update: UserUpdate,
): Promise<UserRow | undefined> {
  await db.updateTable('users').set(update).where('id', '=', id).execute();
  return memberById(db, id);
}

/** The install's first-member mark in server_settings: the id of the member who took it. */
export const FIRST_MEMBER_SETTING = 'moderation.first_member';

/**
 * docs/product.md "Moderation": the first member of a fresh install is a moderator. Called in the
 * signup's transaction once the member's row is written: when no other member exists, the
 * install's one first-member mark is taken for this member, and only the member who took it is
 * made a moderator. The mark's key is unique, so of two first signups at once one takes it and the
 * other finds it taken (PostgreSQL makes the second insert wait for the first transaction); if the
 * first one's transaction fails, the mark goes with it and the other takes it. An install that
 * had members before this release has no mark and makes no one a moderator by itself. Demo members
 * never call this and are not "other members" (docs/decisions.md "Demo members").
 */
export async function claimFirstMember(trx: Db, userId: string, now: string): Promise<boolean> {
  const claimed = await trx
    .insertInto('server_settings')
    .columns(['key', 'value', 'updated_at'])
    .expression(
      trx
        .selectNoFrom((eb) => [
          eb.val(FIRST_MEMBER_SETTING).as('key'),
          eb.val(userId).as('value'),
          eb.val(now).as('updated_at'),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(
              trx
                .selectFrom('users')
                .select('id')
                .where('id', '!=', userId)
                .where('is_demo', '=', 0),
            ),
          ),
        ),
    )
    .onConflict((conflict) => conflict.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!claimed) return false;
  await trx.updateTable('users').set({ is_moderator: 1 }).where('id', '=', userId).execute();
  return true;
}

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Removes every session of a member except one; answers the removed ids. */
export async function deleteOtherSessions(
  db: Db,
  userId: string,
  keepId: string | null,
): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) query = query.where('id', '!=', keepId);
  const rows = await query.returning('id').execute();
  return rows.map((row) => row.id);
}
