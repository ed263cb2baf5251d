/**
 * Redis down (issue 15, row 8): the rate-limited auth routes answer 503 `Try again in a moment.`
 * at once instead of a 500 after ioredis' ten seconds of retries, `/readyz` names Redis within
 * its 2 s while `/healthz` stays 200 (and within a second when Redis hangs instead), friend events still reach this node's own sockets at once,
 * and once Redis is back logins work again without a restart. Redis is a private `redis-server`
 * this file starts, kills and starts again on the same port.
 */
import { Redis } from 'ioredis';
import { beforeAll, expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import { type Member, friendAction, postLogin, signupMembers, signupUser } from './helpers.ts';
import {
  FAST_MS,
  countedAuthCalls,
  expectEachRefusedFast,
  privateRedisSuites,
  timed,
  usePrivateRedisApp,
} from './private-services.ts';
import { connected, listen, useSockets, nextEvent } from './sockets.ts';

const openSocket = useSockets();
const suite = privateRedisSuites('The Redis outage test');

suite('with its Redis killed and started again', (dialect) => {
  const t = usePrivateRedisApp(dialect);
  let origin: string;
  let member: Member;
  let a: Member;
  let b: Member;

  beforeAll(async () => {
    origin = await listen(t.app);
    member = await signupUser(t.app);
    [a, b] = await signupMembers(t.app, 2);
  });

  const login = () => postLogin(t.app, { identifier: member.username, password: member.password });

  it('counts attempts in Redis under the prefix, the route and the client, and limits them', async () => {
    const client = new Redis(t.redis.url);
    try {
      const key = `${t.config.redisPrefix}-rl:POST/api/auth/login-127.0.0.1`;
      expect((await login()).statusCode).toBe(200);
      expect(await client.get(key)).toBe('1');
      expect(await client.pttl(key)).toBeGreaterThan(0);

      await client.set(key, String(t.config.authRateLimit.max), 'PX', 60_000);
      const refused = await login();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'Too many attempts. Try again in 60 seconds.' });
      await client.del(key);
    } finally {
      client.disconnect();
    }
  });

  it('never queues a command a request waits for until Redis comes back', () => {
    // The mechanism behind the bounds below: refuse while disconnected, give up on silence.
    expect(t.app.redis.limits?.options).toMatchObject({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    expect(t.app.redis.limits?.options.commandTimeout).toBeLessThanOrEqual(1_000);
    expect(t.app.redis.events?.options).toMatchObject({ enableOfflineQueue: false });
  });

  it('answers a login with 503 within a second while Redis holds its connections silent', async () => {
    expect((await login()).statusCode).toBe(200);
    t.redis.freeze(true);
    try {
      const { result, ms } = await timed(login);
      expect(result.statusCode).toBe(503);
      expect(result.json()).toEqual({ error: 'Try again in a moment.' });
      expect(ms).toBeLessThan(FAST_MS);
    } finally {
      t.redis.freeze(false);
    }
    expect((await login()).statusCode).toBe(200);
  });

  it('answers login, signup, password reset and change with 503 at once, and /readyz names Redis', async () => {
    await t.redis.kill();

    await expectEachRefusedFast(countedAuthCalls(t.app, member), {
      error: 'Try again in a moment.',
    });

    // Readiness: Redis is named within the check's own 2 s; liveness stays 200 by design.
    const ready = await timed(() => t.app.inject({ method: 'GET', url: '/readyz' }));
    expect(ready.result.statusCode).toBe(503);
    expect(ready.result.json()).toMatchObject({ status: 'unavailable', down: ['redis'] });
    expect(ready.ms).toBeLessThan(2_000 + 500);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers a friend request and hands its event to this node’s sockets at once', async () => {
    const socketB = await connected(openSocket(origin, { auth: { token: b.token } }));
    const received = nextEvent(socketB, 'friend:request:created', FAST_MS);

    const { result, ms } = await timed(() => friendAction(t.app, a, 'request', b));

    expect(result.statusCode).toBe(200);
    expect(ms).toBeLessThan(FAST_MS);
    expect(await received).toEqual({
      fromUserId: a.user.id,
      toUserId: b.user.id,
      pairKey: pairKey(a.user.id, b.user.id),
    });
  });

  it('counts attempts again once Redis is back, without a restart', async () => {
    await t.redis.start();
    // ioredis reconnects on its own, waiting at most 2 s between attempts.
    const deadline = Date.now() + 10_000;
    let status = (await login()).statusCode;
    while (status !== 200 && Date.now() < deadline) {
      expect(status).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await login()).statusCode;
    }
    expect(status).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { redis: 'ok' } });
  });
});
