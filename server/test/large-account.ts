/**
 * A member with a great deal, written straight into the tables (the tests and bench/account-delete.ts
 * share it): photos, friends who like them, notifications, and the rows that come with those.
 * Rows go in small batches, well under SQLite's limit on bound values per statement.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { pairKey } from '../../src/contracts/friends.ts';
import type { Db } from '../src/db/index.ts';
import type { NewUserRow } from '../src/db/schema.ts';

export interface LargeAccount {
  photos: number;
  friends: number;
  notifications: number;
}

/** Rows per insert: at most 14 columns each, so under 999 bound values a statement. */
const ROWS_PER_INSERT = 50;

async function inBatches<T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT)
    await insert(rows.slice(start, start + ROWS_PER_INSERT));
}

const hex = () => randomBytes(16).toString('hex');

/** Members written as rows, with a password hash nobody can log in with. */
export async function insertMembers(db: Db, count: number, prefix: string): Promise<string[]> {
  const now = new Date().toISOString();
  const rows: NewUserRow[] = Array.from({ length: count }, (_, index) => {
    const username = `${prefix}${index}_${randomBytes(3).toString('hex')}`;
    return {
      id: randomUUID(),
      username,
      username_key: username.toLowerCase(),
      email: `${username}@example.test`,
      email_key: `${username}@example.test`.toLowerCase(),
      password_hash: 'not-a-hash',
      birthday: '1990-01-01',
      first_name: '',
      last_name: '',
      profile_image: '',
      interests: '[]',
      referral: '',
      referral_code: hex(),
      theme: 'normal1',
      favorite_quote: '',
      security_question: '',
      security_answer_hash: '',
      search_text: username.toLowerCase(),
      created_at: now,
      updated_at: now,
    };
  });
  await inBatches(rows, (batch) => db.insertInto('users').values(batch).execute());
  return rows.map((row) => row.id);
}

export interface SeededAccount {
  friends: string[];
  /** The media keys the photos' rows name (display and thumbnail); no file is written. */
  pictures: { display: string; thumb: string }[];
}

/**
 * Gives `memberId` `size.photos` photos (rows only: the files they name are not written), as many
 * friends (half asked by the member), each friend liking a photo, and `size.notifications`
 * notifications from those friends.
 */
export async function seedLargeAccount(
  db: Db,
  memberId: string,
  size: LargeAccount,
): Promise<SeededAccount> {
  const now = new Date().toISOString();
  const photoIds = Array.from({ length: size.photos }, () => randomUUID());
  const names = photoIds.map(() => hex());
  await inBatches(
    photoIds.map((id, index) => ({
      id,
      owner_id: memberId,
      display_file: `${names[index]}.webp`,
      thumb_file: `${names[index]}-thumb.webp`,
      width: 1600,
      height: 1200,
      bytes: 200_000,
      folder: index % 3 === 0 ? 'Trips' : 'All',
      caption: `Photo ${index}`,
      position: index,
      created_at: now,
    })),
    (batch) => db.insertInto('gallery_images').values(batch).execute(),
  );

  const friends = await insertMembers(db, size.friends, 'lf');
  await inBatches(
    friends.map((friendId, index) => ({
      pair_key: pairKey(memberId, friendId),
      requester_id: index % 2 === 0 ? memberId : friendId,
      addressee_id: index % 2 === 0 ? friendId : memberId,
      status: 'accepted' as const,
      created_at: now,
      updated_at: now,
    })),
    (batch) => db.insertInto('friendships').values(batch).execute(),
  );
  await inBatches(
    friends.map((friendId, index) => ({
      image_id: photoIds[index % Math.max(1, photoIds.length)] as string,
      user_id: friendId,
      kind: 'like' as const,
      created_at: now,
    })),
    async (batch) => {
      if (photoIds.length > 0) await db.insertInto('image_reactions').values(batch).execute();
    },
  );
  await inBatches(
    Array.from({ length: size.notifications }, (_, index) => ({
      recipient_id: memberId,
      type: 'like',
      actor_id: friends[index % Math.max(1, friends.length)] ?? null,
      message: ' liked your photo',
      link: '/settings',
      request_id: null,
      image_id: photoIds[index % Math.max(1, photoIds.length)] ?? null,
      read_at: null,
      created_at: now,
    })),
    (batch) => db.insertInto('notifications').values(batch).execute(),
  );
  return {
    friends,
    pictures: names.map((name) => ({
      display: `gallery/${name}.webp`,
      thumb: `gallery/${name}-thumb.webp`,
    })),
  };
}
