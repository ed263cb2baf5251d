/**
 * The session cache across server processes on one Redis (docs/decisions.md "Session cache"): a
 * session ended or a member changed on one node is refused or seen fresh by the other within a
 * second, although that node remembered it; a logout is refused on the other node as soon as it
 * answers, right after the nodes start too. Redis at REDIS_TEST_URL is required: when it is
 * unreachable these tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { AuthResponse, MeResponse } from '../../src/contracts/user.ts';
import { buildApp } from '../src/app.ts';
import {
  type Member,
  PASSWORD,
  asBearer,
  redisSuites,
  loginAs,
  sha256,
  signupMembers,
  useTestApp,
  patchProfile,
  postLogout,
  signedInAs,
} from './helpers.ts';
import {
  callServer,
  sharedSessionCacheEnv,
  signupOnServer,
  useServerPair,
} from './server-process.ts';

const suite = await redisSuites('the cross-process session cache tests');

/** How long a revocation may take to reach the other node. */
const BOUND_MS = 1_000;

const me = async (origin: string, token: string) =>
  ((await callServer(origin, '/api/auth/me', { token })).body as MeResponse).user;

/**
 * Asks `ask` until `done` holds, for at most BOUND_MS after `since` (measured on this side, which
 * includes the question's own round trip); answers how long it took, or fails.
 */
async function within<T>(since: number, ask: () => Promise<T>, done: (value: T) => boolean) {
  for (;;) {
    const value = await ask();
    const took = Date.now() - since;
    if (done(value)) return took;
    if (took > BOUND_MS) throw new Error(`still ${JSON.stringify(value)} after ${took} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

suite('two server processes on one Redis and one database', (dialect) => {
  const t = useTestApp(dialect);
  const servers = useServerPair(t, sharedSessionCacheEnv('sessions', dialect));
  const origin = servers.origin;

  async function loginOn(at: string, username: string) {
    const { status, body } = await callServer(at, '/api/auth/login', {
      method: 'POST',
      body: { identifier: username, password: PASSWORD },
    });
    expect(status).toBe(200);
    return (body as AuthResponse).token;
  }

  it('node B remembers a session: its row deleted behind its back is still honoured', async () => {
    // A node serves from its cache once it has heard every node on the revocation channel for
    // a moment (about two seconds) after it starts.
    const member = await signupOnServer(origin(0));
    let honoured = false;
    const until = Date.now() + 10_000;
    while (!honoured && Date.now() < until) {
      const token = await loginOn(origin(0), member.username);
      expect((await me(origin(1), token))?.id).toBe(member.id);
      await t.app.db.deleteFrom('sessions').where('id', '=', sha256(token)).execute();
      honoured = (await me(origin(1), token))?.id === member.id;
    }

    expect(honoured).toBe(true);
  });

  it('refuses on node B, within a second, a session logged out on node A', async () => {
    const member = await signupOnServer(origin(0));
    expect((await me(origin(1), member.token))?.id).toBe(member.id);

    const since = Date.now();
    const out = await callServer(origin(0), '/api/auth/logout', {
      method: 'POST',
      token: member.token,
    });
    expect(out.status).toBe(200);

    await within(
      since,
      () => me(origin(1), member.token),
      (user) => user === null,
    );
  });

  it('refuses on node B, within a second, the sessions a password change on node A ended', async () => {
    const member = await signupOnServer(origin(0));
    const other = await loginOn(origin(1), member.username);
    expect((await me(origin(1), other))?.id).toBe(member.id);

    const since = Date.now();
    const change = await callServer(origin(0), '/api/auth/password', {
      method: 'PATCH',
      token: member.token,
      body: { currentPassword: PASSWORD, newPassword: 'Another#Pass2' },
    });
    expect(change.status).toBe(200);

    await within(
      since,
      () => me(origin(1), other),
      (user) => user === null,
    );
    expect((await me(origin(1), member.token))?.id).toBe(member.id);
  });

  it('shows on node B, within a second, a profile edit made on node A', async () => {
    const member = await signupOnServer(origin(0));
    expect((await me(origin(1), member.token))?.firstName).toBe('Ada');

    const since = Date.now();
    const edit = await callServer(origin(0), '/api/auth/profile', {
      method: 'PATCH',
      token: member.token,
      body: { firstName: 'Grace' },
    });
    expect(edit.status).toBe(200);

    await within(
      since,
      () => me(origin(1), member.token),
      (user) => user?.firstName === 'Grace',
    );
  });

  it('refuses on node B, as soon as node A answers a logout, from the moment both start', async () => {
    await servers.restart();
    const member = await signupOnServer(origin(0));
    // Node B starts serving its cache a moment after it starts; both moments are covered.
    const until = Date.now() + 6_000;
    let remembered = 0;
    while (Date.now() < until) {
      const [token, probe] = [
        await loginOn(origin(0), member.username),
        await loginOn(origin(0), member.username),
      ];
      expect((await me(origin(1), token))?.id).toBe(member.id);
      expect((await me(origin(1), probe))?.id).toBe(member.id);
      await t.app.db.deleteFrom('sessions').where('id', '=', sha256(probe)).execute();
      if ((await me(origin(1), probe))?.id === member.id) remembered++;

      const out = await callServer(origin(0), '/api/auth/logout', { method: 'POST', token });
      expect(out.status).toBe(200);
      for (let ask = 0; ask < 5; ask++) expect(await me(origin(1), token)).toBeNull();
    }
    // Node B answered from its cache for most of the run: the logouts were refused by it.
    expect(remembered).toBeGreaterThan(3);
  });
});

suite('two apps in one process on one Redis and one database', (dialect) => {
  const t = useTestApp(dialect, sharedSessionCacheEnv('sessions-apps', dialect));
  let two: FastifyInstance;
  beforeAll(async () => {
    two = await buildApp(t.config);
    await two.ready();
  });
  afterAll(async () => {
    await two?.close();
  });

  /** Node two answers the session from its cache. */
  const remembered = async (member: Member) => {
    expect((await signedInAs(two, member))?.id).toBe(member.user.id);
    expect(two.sessions.sessionMemory?.cache.get(sha256(member.token), Date.now())).toBeDefined();
  };

  it('has node two refuse a session by the time node one answers its logout, every time', async () => {
    for (const node of [t.app, two]) {
      await vi.waitFor(() => expect(node.sessions.sessionMemory?.cache.serving).toBe(true), {
        timeout: 10_000,
      });
    }
    const [member] = await signupMembers(t.app, 1);
    for (let round = 0; round < 20; round++) {
      const session = await loginAs(t.app, member);
      await remembered(session);

      const out = await postLogout(t.app, asBearer(session));

      expect(out.statusCode).toBe(200);
      expect(await signedInAs(two, session)).toBeNull();
    }
  });

  it('has node two show a profile edit by the time node one answers it', async () => {
    const [member] = await signupMembers(t.app, 1);
    for (const firstName of ['Grace', 'Katherine', 'Dorothy', 'Mary', 'Annie']) {
      await remembered(member);

      const edit = await patchProfile(t.app, asBearer(member), { firstName });

      expect(edit.statusCode).toBe(200);
      expect((await signedInAs(two, member))?.firstName).toBe(firstName);
    }
  });
});
