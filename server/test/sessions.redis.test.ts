/**
 * The session cache across server processes on one Redis (docs/decisions.md "Session cache"): a
 * session ended or a member changed on one node is refused or seen fresh by the other within a
 * second, although that node remembered it. Redis at REDIS_TEST_URL is required: when it is
 * unreachable these tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AuthResponse, MeResponse } from '../../src/contracts/user.ts';
import {
  ORIGIN,
  PASSWORD,
  REDIS_TEST_URL,
  describeWithRedis,
  forEachDialect,
  sha256,
  signupFields,
  uniqueUsername,
  useTestApp,
} from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const suite = await describeWithRedis('the cross-process session cache tests');

/** How long a revocation may take to reach the other node. */
const BOUND_MS = 1_000;

async function call(
  origin: string,
  pathname: string,
  init: { method?: string; token?: string; body?: object } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${pathname}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json', origin: ORIGIN } : {}),
    },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

const me = async (origin: string, token: string) =>
  ((await call(origin, '/api/auth/me', { token })).body as MeResponse).user;

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

forEachDialect((dialect) => {
  suite('two server processes on one Redis and one database', () => {
    const t = useTestApp(dialect);
    const servers: ServerProcess[] = [];
    const origin = (index: 0 | 1) => (servers[index] as ServerProcess).origin;
    beforeAll(async () => {
      const env = {
        DATA_DIR: t.config.dataDir,
        STATIC_DIR: path.join(t.config.dataDir, 'no-static-build'),
        REDIS_URL: REDIS_TEST_URL,
        REDIS_PREFIX: `orbit-sessions-${dialect}-${process.pid}`,
        AUTH_RATE_LIMIT: '1000',
        // Far longer than the bound: only a revocation can make the other node forget in time.
        SESSION_CACHE_TTL_MS: '300000',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      };
      servers.push(await startServerProcess(env), await startServerProcess(env));
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    });

    async function signupOn(at: string) {
      const { payload, headers } = await signupFields({ username: uniqueUsername('s') });
      const response = await fetch(`${at}/api/auth/signup`, {
        method: 'POST',
        headers,
        body: new Uint8Array(payload),
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as AuthResponse;
      return { id: body.user.id, username: body.user.username, token: body.token };
    }

    async function loginOn(at: string, username: string) {
      const { status, body } = await call(at, '/api/auth/login', {
        method: 'POST',
        body: { identifier: username, password: PASSWORD },
      });
      expect(status).toBe(200);
      return (body as AuthResponse).token;
    }

    it('node B remembers a session: its row deleted behind its back is still honoured', async () => {
      // A node serves from its cache once it hears the revocation channel, soon after it starts.
      const member = await signupOn(origin(0));
      let honoured = false;
      for (let tries = 0; tries < 50 && !honoured; tries++) {
        const token = await loginOn(origin(0), member.username);
        expect((await me(origin(1), token))?.id).toBe(member.id);
        await t.app.db.deleteFrom('sessions').where('id', '=', sha256(token)).execute();
        honoured = (await me(origin(1), token))?.id === member.id;
      }

      expect(honoured).toBe(true);
    });

    it('refuses on node B, within a second, a session logged out on node A', async () => {
      const member = await signupOn(origin(0));
      expect((await me(origin(1), member.token))?.id).toBe(member.id);

      const since = Date.now();
      const out = await call(origin(0), '/api/auth/logout', {
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
      const member = await signupOn(origin(0));
      const other = await loginOn(origin(1), member.username);
      expect((await me(origin(1), other))?.id).toBe(member.id);

      const since = Date.now();
      const change = await call(origin(0), '/api/auth/password', {
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
      const member = await signupOn(origin(0));
      expect((await me(origin(1), member.token))?.firstName).toBe('Ada');

      const since = Date.now();
      const edit = await call(origin(0), '/api/auth/profile', {
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
  });
});
