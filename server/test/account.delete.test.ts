/**
 * Deleting one's account (docs/product.md "Leaving"): the confirmation it needs, everything of the
 * member that goes, what of everyone else stays, and what others are told.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE_USERNAME_MISMATCH } from '../../src/contracts/safety.ts';
import {
  type Neighbourhood,
  avatarKey,
  deleteAccount,
  deleteOwnAccount,
  imageKeys,
  neighbourhood,
  storedKeys,
} from './account-helpers.ts';
import { listGallery } from './gallery-helpers.ts';
import {
  type Member,
  asBearer,
  asCookie,
  forEachApp,
  friendStatus,
  loginStatus,
  signupUser,
  signedInAs,
} from './helpers.ts';
import { findTraces } from './traces.ts';

const WRONG = 'Wrong#Pass1';
const NOT_CORRECT = 'Your current password is not correct.';

forEachApp((t) => {
  describe('the confirmation', () => {
    it(`answers 400 "${DELETE_USERNAME_MISMATCH}" when the typed username differs, keeping the account`, async () => {
      const member = await signupUser(t.app);

      const response = await deleteAccount(t.app, member, {
        password: member.password,
        username: `${member.username}x`,
      });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: DELETE_USERNAME_MISMATCH });
      expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
    });

    it('takes the username in any case and with spaces around it', async () => {
      const member = await signupUser(t.app);

      const response = await deleteAccount(t.app, member, {
        password: member.password,
        username: ` ${member.username.toUpperCase()} `,
      });

      expect(response.statusCode).toBe(200);
      expect(await signedInAs(t.app, member)).toBeNull();
    });

    it(`answers 400 "${NOT_CORRECT}" for a wrong password, keeping the account`, async () => {
      const member = await signupUser(t.app);

      const response = await deleteAccount(t.app, member, {
        password: WRONG,
        username: member.username,
      });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: NOT_CORRECT });
      expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
    });

    it('answers 400 "Enter your current password." without one', async () => {
      const member = await signupUser(t.app);

      const response = await deleteAccount(t.app, member, { username: member.username });

      expect(response.json()).toEqual({ error: 'Enter your current password.' });
    });

    it('answers 429 after five wrong passwords, counted with the other current-password checks, even for the right one', async () => {
      const member = await signupUser(t.app);
      for (let i = 0; i < 3; i += 1) {
        const change = await t.app.inject({
          method: 'PATCH',
          url: '/api/auth/password',
          headers: asCookie(member),
          payload: { currentPassword: WRONG, newPassword: 'Nebula#2025x' },
        });
        expect(change.statusCode).toBe(400);
      }
      for (let i = 0; i < 2; i += 1)
        expect(
          (await deleteAccount(t.app, member, { password: WRONG, username: member.username }))
            .statusCode,
        ).toBe(400);

      const refused = await deleteOwnAccount(t.app, member);

      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ error: string }>().error).toMatch(/^Too many attempts\. Try again in/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
    });

    it('does not count a mistyped username as a password guess', async () => {
      const member = await signupUser(t.app);
      for (let i = 0; i < 6; i += 1)
        await deleteAccount(t.app, member, { password: WRONG, username: 'someone-else' });

      expect((await deleteOwnAccount(t.app, member)).statusCode).toBe(200);
    });

    it.each([
      { name: 'answers 401 without a session', status: 401, headers: () => ({}) },
      {
        name: 'answers 403 to a cookie call from a page of another origin',
        status: 403,
        headers: (member: Member) => ({ cookie: member.cookie, origin: 'https://evil.example' }),
      },
    ])('$name', async ({ status, headers }) => {
      const member = await signupUser(t.app);

      const response = await deleteAccount(
        t.app,
        member,
        { password: member.password, username: member.username },
        headers(member),
      );

      expect(response.statusCode).toBe(status);
      expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
    });
  });

  describe('a deleted account', () => {
    let n: Neighbourhood;
    let keysBefore: string[];
    let leaverKeys: string[];
    let response: Awaited<ReturnType<typeof deleteOwnAccount>>;

    beforeAll(async () => {
      n = await neighbourhood(t.app);
      keysBefore = await storedKeys(t.app);
      leaverKeys = [...n.leaverPhotos.flatMap(imageKeys), avatarKey(n.leaver)];
      response = await deleteOwnAccount(t.app, n.leaver);
    });

    it('answers {ok: true} and clears the session cookie', () => {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      const cookie = response.cookies.find((item) => item.name === 'orbit_session');
      expect(cookie?.value).toBe('');
      expect(cookie?.expires?.getTime()).toBeLessThan(Date.now());
    });

    it('leaves no trace of the member in any text column of any table but the reports about them', async () => {
      const { id } = n.leaver.user;
      const traces = await findTraces(t.app.db, t.app.dialect, [
        id,
        n.leaver.username.toLowerCase(),
        n.leaver.email.toLowerCase(),
      ]);
      const about = await t.app.db
        .selectFrom('reports')
        .select(['id', 'target_id', 'target_user_id', 'target_kind'])
        .where('id', 'in', n.reportsAbout)
        .execute();

      expect(about).toHaveLength(2);
      const expected = about.flatMap((report) => [
        { table: 'reports', column: 'target_user_id', value: id, needle: id },
        ...(report.target_kind === 'member'
          ? [{ table: 'reports', column: 'target_id', value: id, needle: id }]
          : []),
      ]);
      expect(traces).toEqual(expect.arrayContaining(expected));
      expect(traces).toHaveLength(expected.length);
    });

    it('removes every picture of the member from the media store: both sizes of each photo, and the avatar', async () => {
      const after = await storedKeys(t.app);

      expect(leaverKeys.every((key) => keysBefore.includes(key))).toBe(true);
      expect(after.filter((key) => leaverKeys.includes(key))).toEqual([]);
      expect(after).toEqual(keysBefore.filter((key) => !leaverKeys.includes(key)));
    });

    it('ends every session of the member', async () => {
      expect(await signedInAs(t.app, n.leaver)).toBeNull();
      expect(await signedInAs(t.app, n.leaverElsewhere)).toBeNull();
      const call = await t.app.inject({
        method: 'GET',
        url: '/api/gallery',
        headers: asBearer(n.leaverElsewhere),
      });
      expect(call.statusCode).toBe(401);
      expect(await loginStatus(t.app, n.leaver)).toBe(401);
    });

    it('frees the username and the email for a new member at once', async () => {
      const newcomer = await signupUser(t.app, {
        username: n.leaver.username.toUpperCase(),
        email: n.leaver.email,
      });

      expect(newcomer.user.id).not.toBe(n.leaver.user.id);
      expect(newcomer.username).toBe(n.leaver.username.toUpperCase());
    });

    it('keeps the reports about the member for moderators', async () => {
      const rows = await t.app.db
        .selectFrom('reports')
        .select('id')
        .where('target_user_id', '=', n.leaver.user.id)
        .orderBy('id')
        .execute();

      expect(rows.map((row) => row.id)).toEqual(n.reportsAbout);
    });

    it('leaves the other members their own photos, reactions and friendships', async () => {
      expect((await listGallery(t.app, n.friendAsked)).map((image) => image.id)).toEqual([
        n.friendPhoto.id,
      ]);
      const [bystanderPhoto] = await listGallery(t.app, n.bystander);
      expect(bystanderPhoto?.likes).toEqual([n.otherBystander.user.id]);
      expect(bystanderPhoto?.dislikes).toEqual([]);
      expect(await friendStatus(t.app, n.bystander, n.otherBystander)).toBe('friends');
      const friendLikes = (await listGallery(t.app, n.friendAsked))[0]?.likes;
      expect(friendLikes).toEqual([]);
    });

    it('leaves the others without the friendships and requests the member had', async () => {
      for (const other of [n.friendAsked, n.friendAnswered, n.askedByLeaver, n.askingLeaver]) {
        const counts = await t.app.inject({
          method: 'GET',
          url: '/api/users/friends/counts',
          headers: asBearer(other),
        });
        expect(counts.json()).toEqual({ friends: 0, incoming: 0, outgoing: 0 });
      }
    });

    it('removes notices about the member’s photos sent to others, and keeps the others’ other notifications', async () => {
      const rows = await t.app.db
        .selectFrom('notifications')
        .select(['recipient_id', 'type'])
        .where('recipient_id', 'in', [n.bystander.user.id, n.otherBystander.user.id])
        .execute();
      const named = (id: string) => (id === n.bystander.user.id ? 'bystander' : 'other');

      expect(rows.map((row) => `${named(row.recipient_id)} ${row.type}`).sort()).toEqual([
        'bystander follow',
        'bystander like',
        'bystander system',
        'other friend_request',
        'other system',
      ]);
    });
  });

  it('finds a member in a table it was never told about (the scan reads the catalogue)', async () => {
    const member = await signupUser(t.app);
    await sql`create table scan_probe (note text)`.execute(t.app.db);
    try {
      await sql`insert into scan_probe (note) values (${`kept for ${member.user.id}`})`.execute(
        t.app.db,
      );

      const traces = await findTraces(t.app.db, t.app.dialect, [member.user.id]);

      expect(traces.filter((trace) => trace.table === 'scan_probe')).toEqual([
        {
          table: 'scan_probe',
          column: 'note',
          value: `kept for ${member.user.id}`,
          needle: member.user.id,
        },
      ]);
    } finally {
      await sql`drop table scan_probe`.execute(t.app.db);
    }
  });

  it('answers 401 to a second deletion with the same session', async () => {
    const member = await signupUser(t.app);
    expect((await deleteOwnAccount(t.app, member)).statusCode).toBe(200);

    expect((await deleteOwnAccount(t.app, member)).statusCode).toBe(401);
  });
});
