/**
 * A deletion that fails part-way leaves the account whole (one transaction), and pictures that
 * cannot be removed after it are left to the sweep without failing it (docs/decisions.md "Leaving:
 * delete and export", "One media store").
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { DISCARD_TRIES } from '../src/media/index.ts';
import { SWEEP_GRACE_MS, sweepStore } from '../src/media/sweep.ts';
import {
  avatarKey,
  deleteOwnAccount,
  imageKeys,
  neighbourhood,
  storedKeys,
} from './account-helpers.ts';
import { listGallery } from './gallery-helpers.ts';
import { type Member, forEachDialect, friendStatus, signedInAs } from './helpers.ts';
import { WARN, useLoggedApp } from './uploads-helpers.ts';

forEachDialect((dialect) => {
  const t = useLoggedApp(dialect);

  /** Makes deleting this member's row fail, as a crash or a lost connection in the last statement would. */
  async function refuseDeletingRowOf(member: Member): Promise<() => Promise<void>> {
    const id = member.user.id;
    if (dialect === 'postgres') {
      await sql`create function refuse_delete() returns trigger language plpgsql as
        $$ begin raise exception 'refused'; end $$`.execute(t.app.db);
      await sql`create trigger refuse_delete before delete on users for each row
        when (old.id = ${sql.lit(id)}) execute function refuse_delete()`.execute(t.app.db);
      return async () => {
        await sql`drop trigger refuse_delete on users`.execute(t.app.db);
        await sql`drop function refuse_delete()`.execute(t.app.db);
      };
    }
    await sql`create trigger refuse_delete before delete on users
      when old.id = ${sql.lit(id)} begin select raise(abort, 'refused'); end`.execute(t.app.db);
    return async () => {
      await sql`drop trigger refuse_delete`.execute(t.app.db);
    };
  }

  /** The rows keyed to a member, counted per table. */
  async function rowsOf(member: Member) {
    const { id } = member.user;
    const count = async (query: Promise<{ n: number | string | bigint }>) =>
      Number((await query).n);
    const countAll = sql<number>`count(*)`.as('n');
    return {
      photos: await count(
        t.app.db
          .selectFrom('gallery_images')
          .select(countAll)
          .where('owner_id', '=', id)
          .executeTakeFirstOrThrow(),
      ),
      friendships: await count(
        t.app.db
          .selectFrom('friendships')
          .select(countAll)
          .where((eb) => eb.or([eb('requester_id', '=', id), eb('addressee_id', '=', id)]))
          .executeTakeFirstOrThrow(),
      ),
      notifications: await count(
        t.app.db
          .selectFrom('notifications')
          .select(countAll)
          .where((eb) => eb.or([eb('recipient_id', '=', id), eb('actor_id', '=', id)]))
          .executeTakeFirstOrThrow(),
      ),
      reactions: await count(
        t.app.db
          .selectFrom('image_reactions')
          .select(countAll)
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow(),
      ),
      sessions: await count(
        t.app.db
          .selectFrom('sessions')
          .select(countAll)
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow(),
      ),
      reports: await count(
        t.app.db
          .selectFrom('reports')
          .select(countAll)
          .where('reporter_id', '=', id)
          .executeTakeFirstOrThrow(),
      ),
    };
  }

  it('keeps the whole account when the deletion fails at its last statement', async () => {
    const n = await neighbourhood(t.app);
    const before = await rowsOf(n.leaver);
    const keys = await storedKeys(t.app);
    const allow = await refuseDeletingRowOf(n.leaver);
    try {
      const response = await deleteOwnAccount(t.app, n.leaver);

      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: expect.any(String) as string });
    } finally {
      await allow();
    }

    expect(await rowsOf(n.leaver)).toEqual(before);
    expect(before).toMatchObject({ photos: 2, friendships: 4, sessions: 2, reports: 2 });
    expect(await storedKeys(t.app)).toEqual(keys);
    expect((await signedInAs(t.app, n.leaverElsewhere))?.id).toBe(n.leaver.user.id);
    expect(await friendStatus(t.app, n.friendAsked, n.leaver)).toBe('friends');
    expect((await listGallery(t.app, n.leaver)).map((image) => image.id).sort()).toEqual(
      n.leaverPhotos.map((image) => image.id).sort(),
    );
    // Once nothing refuses it, the same deletion goes through.
    expect((await deleteOwnAccount(t.app, n.leaver)).statusCode).toBe(200);
  });

  it('stands when its pictures cannot be removed: the node logs their keys and the sweep removes them', async () => {
    const n = await neighbourhood(t.app);
    const pictures = [...n.leaverPhotos.flatMap(imageKeys), avatarKey(n.leaver)];
    const store = t.app.media.store;
    const remove = store.remove.bind(store);
    let removals = 0;
    store.remove = () => {
      removals += 1;
      return Promise.reject(Object.assign(new Error('EIO: i/o error, unlink'), { code: 'EIO' }));
    };
    let response;
    try {
      response = await deleteOwnAccount(t.app, n.leaver);
    } finally {
      store.remove = remove;
    }

    expect(response.statusCode).toBe(200);
    expect(await signedInAs(t.app, n.leaver)).toBeNull();
    expect(removals).toBe(DISCARD_TRIES);
    const warning = t
      .logs()
      .find(
        (entry) =>
          entry.level === WARN &&
          entry.msg === 'could not remove pictures; the sweep will' &&
          (entry.keys as string[]).includes(pictures[0] as string),
      );
    expect((warning?.keys as string[] | undefined)?.sort()).toEqual([...pictures].sort());
    expect((await storedKeys(t.app)).filter((key) => pictures.includes(key)).sort()).toEqual(
      [...pictures].sort(),
    );

    // Young pictures are left alone; once past the grace, no row names them and they go.
    await sweepStore({ db: t.app.db, store }, Date.now() + SWEEP_GRACE_MS + 60_000);

    expect((await storedKeys(t.app)).filter((key) => pictures.includes(key))).toEqual([]);
  });
});
