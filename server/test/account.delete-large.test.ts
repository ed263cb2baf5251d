/**
 * Deleting a large account (docs/product.md "Leaving"): 2,000 photos, 500 friends and 5,000
 * notifications go, and no statement binds more than a handful of values, whatever the member
 * owns (SQLite limits the values one statement may bind). Timings are bench/account-delete.ts's.
 */
import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteOwnAccount } from './account-helpers.ts';
import { type Member, type TestApp, buildTestApp, forEachDialect, signupUser } from './helpers.ts';
import { seedLargeAccount } from './large-account.ts';

const SIZE = { photos: 2_000, friends: 500, notifications: 5_000 };
/** The most values any statement of a deletion may bind. */
const MOST_VALUES = 10;

forEachDialect((dialect) => {
  let t: TestApp;
  let recording: { sql: string; values: number }[] | undefined;
  let member: Member;
  let friends: string[];
  let statements: { sql: string; values: number }[];
  let status: number;

  beforeAll(async () => {
    t = await buildTestApp({
      dialect,
      onQuery: (event: LogEvent) =>
        recording?.push({ sql: event.query.sql, values: event.query.parameters.length }),
    });
    member = await signupUser(t.app);
    friends = (await seedLargeAccount(t.app.db, member.user.id, SIZE)).friends;
    recording = [];
    status = (await deleteOwnAccount(t.app, member)).statusCode;
    statements = recording;
    recording = undefined;
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('deletes a member with 2,000 photos, 500 friends and 5,000 notifications', async () => {
    expect(status).toBe(200);
    const left = async (table: 'gallery_images' | 'friendships' | 'notifications') =>
      Number(
        (
          await t.app.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await left('gallery_images')).toBe(0);
    expect(await left('friendships')).toBe(0);
    expect(await left('notifications')).toBe(0);
  });

  it('binds at most a few values in any statement of the deletion', () => {
    const largest = statements.reduce((most, one) => (one.values > most.values ? one : most));

    expect(statements.length).toBeGreaterThan(5);
    expect(largest.values, largest.sql).toBeLessThanOrEqual(MOST_VALUES);
  });

  it('leaves the friends’ accounts', async () => {
    const rows = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('id', 'in', friends.slice(0, 100))
      .execute();

    expect(rows).toHaveLength(100);
  });
});
