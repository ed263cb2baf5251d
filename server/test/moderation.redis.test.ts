/**
 * A suspension across server processes on one Redis (docs/product.md "Moderation"): made on node
 * A, it refuses the member's session on node B, although node B remembered it, and cuts their
 * socket there, within a second. Redis at REDIS_TEST_URL is required: when it is unreachable these
 * tests are skipped with a warning, or fail with ORBIT_REQUIRE_ALL=1.
 */
import { expect, it } from 'vitest';
import type { MeResponse } from '../../src/contracts/user.ts';
import { HEARD_WITHIN_MS } from '../src/lib/revocations.ts';
import { redisSuites, useTestApp } from './helpers.ts';
import {
  callServer,
  sharedSessionCacheEnv,
  signupOnServer,
  useServerPair,
} from './server-process.ts';
import { connected, useSockets } from './sockets.ts';

const suite = await redisSuites('the cross-process suspension tests');
const openSocket = useSockets();

/** How long a suspension may take to reach the other node. */
const BOUND_MS = 1_000;
/** How long node B may take to start serving its session cache. */
const SERVING_WAIT_MS = 5 * HEARD_WITHIN_MS;

suite('two server processes on one Redis and one database', (dialect) => {
  const t = useTestApp(dialect);
  const { origin } = useServerPair(t, sharedSessionCacheEnv('suspend', dialect));

  it('cuts the member’s socket and refuses their session on node B within a second', async () => {
    const moderator = await signupOnServer(origin(0));
    expect(moderator.isModerator).toBe(true);
    const member = await signupOnServer(origin(0));
    const reporter = await signupOnServer(origin(0));
    // Node B serves sessions from its cache once it has heard the revocation channel for a while
    // (HEARD_WITHIN_MS): wait for it by the clock, however fast each probe is, so only the
    // revocation can make it refuse the member's session in time.
    let serving = false;
    const waitUntil = Date.now() + SERVING_WAIT_MS;
    while (!serving && Date.now() < waitUntil) {
      const probe = await signupOnServer(origin(0));
      expect((await callServer(origin(1), '/api/auth/me', { token: probe.token })).status).toBe(
        200,
      );
      await t.app.db.deleteFrom('sessions').where('user_id', '=', probe.id).execute();
      serving =
        ((await callServer(origin(1), '/api/auth/me', { token: probe.token })).body as MeResponse)
          .user?.id === probe.id;
    }
    expect(serving).toBe(true);
    const sent = await callServer(origin(0), '/api/reports', {
      method: 'POST',
      token: reporter.token,
      body: { kind: 'member', targetId: member.id, reason: 'harassment' },
    });
    expect(sent.status).toBe(201);
    const { body } = await callServer(origin(0), '/api/moderation/reports', {
      token: moderator.token,
    });
    const reportId = (body as { reports: { id: string }[] }).reports[0]?.id;
    // Node B remembers the session (its database row is read once) and holds a socket.
    const me = async () =>
      ((await callServer(origin(1), '/api/auth/me', { token: member.token })).body as MeResponse)
        .user;
    expect((await me())?.id).toBe(member.id);
    const socket = await connected(openSocket(origin(1), { auth: { token: member.token } }));
    const cut = new Promise<number>((resolve) =>
      socket.once('disconnect', () => resolve(Date.now())),
    );

    const since = Date.now();
    const suspended = await callServer(origin(0), `/api/moderation/reports/${reportId}/suspend`, {
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
    const login = await callServer(origin(1), '/api/auth/login', {
      method: 'POST',
      body: { identifier: member.username, password: 'Orbit#Pass1' },
    });
    expect(login).toEqual({
      status: 403,
      body: { error: 'This account is suspended: Harassment.' },
    });
  });
});
