/**
 * A suspension across server processes on one Redis (docs/product.md "Moderation"): made on node
 * A, it refuses the member's session on node B, although node B remembered it, and cuts their
 * socket there, within a second. Redis at REDIS_TEST_URL is required: when it is unreachable these
 * tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AuthResponse, MeResponse } from '../../src/contracts/user.ts';
import {
  ORIGIN,
  REDIS_TEST_URL,
  describeWithRedis,
  forEachDialect,
  signupFields,
  uniqueUsername,
  useTestApp,
} from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { connected, useSockets } from './sockets.ts';

const suite = await describeWithRedis('the cross-process suspension tests');
const openSocket = useSockets();

/** How long a suspension may take to reach the other node. */
const BOUND_MS = 1_000;

interface Account {
  id: string;
  username: string;
  token: string;
  isModerator: boolean;
}

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

async function signupOn(origin: string): Promise<Account> {
  const { payload, headers } = await signupFields({ username: uniqueUsername('s') });
  const response = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers,
    body: new Uint8Array(payload),
    signal: AbortSignal.timeout(10_000),
  });
  expect(response.status).toBe(201);
  const { user, token } = (await response.json()) as AuthResponse;
  return { id: user.id, username: user.username, token, isModerator: user.isModerator };
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
        REDIS_PREFIX: `orbit-suspend-${dialect}-${process.pid}`,
        AUTH_RATE_LIMIT: '1000',
        // Far longer than the bound: only the revocation can make node B forget in time.
        SESSION_CACHE_TTL_MS: '300000',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      };
      servers.push(await startServerProcess(env), await startServerProcess(env));
    });
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    });

    it('cuts the member’s socket and refuses their session on node B within a second', async () => {
      const moderator = await signupOn(origin(0));
      expect(moderator.isModerator).toBe(true);
      const member = await signupOn(origin(0));
      const reporter = await signupOn(origin(0));
      // Node B serves sessions from its cache once it hears the revocation channel: wait for it,
      // so only the revocation can make it refuse the member's session in time.
      let serving = false;
      for (let tries = 0; tries < 50 && !serving; tries++) {
        const probe = await signupOn(origin(0));
        expect((await call(origin(1), '/api/auth/me', { token: probe.token })).status).toBe(200);
        await t.app.db.deleteFrom('sessions').where('user_id', '=', probe.id).execute();
        serving =
          ((await call(origin(1), '/api/auth/me', { token: probe.token })).body as MeResponse).user
            ?.id === probe.id;
      }
      expect(serving).toBe(true);
      const sent = await call(origin(0), '/api/reports', {
        method: 'POST',
        token: reporter.token,
        body: { kind: 'member', targetId: member.id, reason: 'harassment' },
      });
      expect(sent.status).toBe(201);
      const { body } = await call(origin(0), '/api/moderation/reports', {
        token: moderator.token,
      });
      const reportId = (body as { reports: { id: string }[] }).reports[0]?.id;
      // Node B remembers the session (its database row is read once) and holds a socket.
      const me = async () =>
        ((await call(origin(1), '/api/auth/me', { token: member.token })).body as MeResponse).user;
      expect((await me())?.id).toBe(member.id);
      const socket = await connected(openSocket(origin(1), { auth: { token: member.token } }));
      const cut = new Promise<number>((resolve) =>
        socket.once('disconnect', () => resolve(Date.now())),
      );

      const since = Date.now();
      const suspended = await call(origin(0), `/api/moderation/reports/${reportId}/suspend`, {
        method: 'POST',
        token: moderator.token,
        body: { reason: 'Harassment.' },
      });
      expect(suspended.status).toBe(200);

      const cutAt = await Promise.race([
        cut,
        new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 5_000)),
      ]);
      expect(cutAt - since).toBeLessThan(BOUND_MS);
      for (;;) {
        const user = await me();
        const took = Date.now() - since;
        if (user === null) break;
        if (took > BOUND_MS) throw new Error(`node B still serves the session after ${took} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const login = await call(origin(1), '/api/auth/login', {
        method: 'POST',
        body: { identifier: member.username, password: 'Orbit#Pass1' },
      });
      expect(login).toEqual({
        status: 403,
        body: { error: 'This account is suspended: Harassment.' },
      });
    });
  });
});
