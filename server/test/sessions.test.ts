/**
 * The session cache in one process (docs/decisions.md "Session cache"): a remembered session is
 * served without the database, and every way a session ends or a member's record changes is seen
 * by the very next request.
 */
import { describe, expect, it } from 'vitest';
import { createSessionCache } from '../src/lib/sessionCache.ts';
import {
  type Member,
  ORIGIN,
  PASSWORD,
  SECURITY_ANSWER,
  asBearer,
  forEachApp,
  loginAs,
  sha256,
  signupUser,
  patchProfile,
  postLogout,
  postReset,
  putTheme,
  signedInAs,
} from './helpers.ts';

forEachApp((t) => {
  /** Makes sure the session is remembered: one lookup puts it in the cache. */
  const warm = async (member: Member) => {
    expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
    expect(t.app.sessions.sessionMemory?.cache.get(sha256(member.token), Date.now())).toBeDefined();
  };
  /** A new member logged in twice, both sessions remembered. */
  const twoRememberedSessions = async (): Promise<[Member, Member]> => {
    const member = await signupUser(t.app);
    const other = await loginAs(t.app, member);
    await warm(member);
    await warm(other);
    return [member, other];
  };

  it('answers a remembered session without the database: its deleted row is still honoured', async () => {
    const member = await signupUser(t.app);
    await warm(member);

    await t.app.db.deleteFrom('sessions').where('id', '=', sha256(member.token)).execute();

    // Without the cache this is `null`: the row is gone.
    expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
  });

  it('refuses a remembered session right after its logout', async () => {
    const [member, other] = await twoRememberedSessions();

    const out = await postLogout(t.app, asBearer(member));

    expect(out.statusCode).toBe(200);
    expect(await signedInAs(t.app, member)).toBeNull();
    const settings = await t.app.inject({ url: '/api/users/me', headers: asBearer(member) });
    expect(settings.statusCode).toBe(401);
    expect((await signedInAs(t.app, other))?.id).toBe(member.user.id);
  });

  it('refuses the other remembered sessions right after a password change, and checks the new password next', async () => {
    const [member, other] = await twoRememberedSessions();
    const change = (current: string, next: string) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/auth/password',
        headers: asBearer(member),
        payload: { currentPassword: current, newPassword: next },
      });

    expect((await change(PASSWORD, 'Another#Pass2')).statusCode).toBe(200);

    expect(await signedInAs(t.app, other)).toBeNull();
    expect((await signedInAs(t.app, member))?.id).toBe(member.user.id);
    // The session kept is checked against the password now stored, not the one it was read with.
    expect((await change(PASSWORD, 'Third#Pass3')).statusCode).toBe(400);
    expect((await change('Another#Pass2', 'Third#Pass3')).statusCode).toBe(200);
  });

  it('refuses every remembered session right after a password reset', async () => {
    const member = await signupUser(t.app);
    await warm(member);

    const reset = await postReset(
      t.app,
      { origin: ORIGIN },
      {
        identifier: member.username,
        answer: SECURITY_ANSWER,
        newPassword: 'Another#Pass2',
      },
    );

    expect(reset.statusCode).toBe(200);
    expect(await signedInAs(t.app, member)).toBeNull();
  });

  it('refuses a remembered session once it has expired', async () => {
    const member = await signupUser(t.app);
    await warm(member);
    const sessions = t.app.sessions;
    const { expires_at } = await t.app.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('id', '=', sha256(member.token))
      .executeTakeFirstOrThrow();
    const realNow = sessions.now;
    sessions.now = () => new Date(Date.parse(expires_at) + 1);
    try {
      expect(await signedInAs(t.app, member)).toBeNull();
    } finally {
      if (realNow) sessions.now = realNow;
      else delete sessions.now;
    }
  });

  it('shows a profile edit and a theme change on the next request', async () => {
    const member = await signupUser(t.app);
    await warm(member);

    const edit = await patchProfile(t.app, asBearer(member), {
      firstName: 'Grace',
      username: `${member.username}x`,
    });
    expect(edit.statusCode).toBe(200);
    expect(await signedInAs(t.app, member)).toMatchObject({
      firstName: 'Grace',
      username: `${member.username}x`,
    });

    const theme = await putTheme(t.app, asBearer(member), { theme: 'light' });
    expect(theme.statusCode).toBe(200);
    expect((await signedInAs(t.app, member))?.theme).toBe('light');
  });
});

describe('the session cache itself', () => {
  const found = (userId: string, endsAt = Number.MAX_SAFE_INTEGER) =>
    Promise.resolve({ value: { userId }, userId, endsAt });

  it('keeps at most its size, dropping the least recently used', async () => {
    const cache = createSessionCache<{ userId: string }>({ size: 2, ttlMs: 60_000 });
    await cache.through('a', 0, () => found('u1'));
    await cache.through('b', 0, () => found('u2'));
    cache.get('a', 0);
    await cache.through('c', 0, () => found('u3'));

    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeDefined();
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('c', 0)).toBeDefined();
  });

  it('trusts an entry for its TTL and never past the session’s end', async () => {
    let clock = 1_000;
    const cache = createSessionCache<{ userId: string }>({
      size: 10,
      ttlMs: 500,
      now: () => clock,
    });
    await cache.through('a', 0, () => found('u1'));
    await cache.through('b', 0, () => found('u2', 100));

    expect(cache.get('b', 99)).toBeDefined();
    expect(cache.get('b', 100)).toBeUndefined();
    clock = 1_500;
    expect(cache.get('a', 0)).toBeDefined();
    clock = 1_501;
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not remember what was read while a revocation came in', async () => {
    const cache = createSessionCache<{ userId: string }>({ size: 10, ttlMs: 60_000 });
    let release = () => {};
    const reading = cache.through(
      'a',
      0,
      () =>
        new Promise((resolve) => {
          release = () => resolve({ value: { userId: 'u1' }, userId: 'u1', endsAt: 10 ** 15 });
        }),
    );
    cache.dropMembers(['u1']);
    release();

    expect(await reading).toEqual({ userId: 'u1' });
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('drops every session of a member, and serves nothing while it cannot hear revocations', async () => {
    let hearing = true;
    const cache = createSessionCache<{ userId: string }>({
      size: 10,
      ttlMs: 60_000,
      serving: () => hearing,
    });
    await cache.through('a', 0, () => found('u1'));
    await cache.through('b', 0, () => found('u1'));
    await cache.through('c', 0, () => found('u2'));

    cache.dropMembers(['u1']);
    expect(cache.size).toBe(1);
    hearing = false;
    expect(cache.serving).toBe(false);
    expect(cache.get('c', 0)).toBeUndefined();
    // Nothing read meanwhile is remembered either.
    await cache.through('d', 0, () => found('u3'));
    hearing = true;
    expect(cache.get('d', 0)).toBeUndefined();
  });
});
