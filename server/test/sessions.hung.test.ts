/**
 * A hung or cut-off Redis and the session cache across nodes (docs/decisions.md "Session cache"):
 * two apps on one database and a private Redis. A node serves remembered sessions only while it
 * hears its own heartbeat, and every other node's, come back through Redis. So when Redis hangs
 * (SIGSTOP) or one node is cut off from it behind a proxy, a session logged out or a member
 * suspended on one node is refused on the other within the heartbeat window (about 2 s), never
 * after the cache's TTL (five minutes here), and still refused once Redis is back.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { HEARD_WITHIN_MS } from '../src/lib/revocations.ts';
import {
  type Member,
  type TestApp,
  asBearer,
  buildTestApp,
  loginAs,
  sha256,
  signupMembers,
  postLogout,
  signedInAs,
} from './helpers.ts';
import {
  type CuttableProxy,
  type PrivateRedis,
  privateRedisSuites,
  startCuttableProxy,
  startPrivateRedis,
  usePrivateRedisApp,
} from './private-services.ts';
import { acted, report } from './safety-helpers.ts';

/** The window, and slack for a busy test machine (a heartbeat is sent every second). */
const BOUND_MS = HEARD_WITHIN_MS + 1_000;
/** How long a refusal must hold once it came. */
const HOLD_MS = 1_500;
/** Far longer than any bound here: only the heartbeats can make a node stop trusting in time. */
const TTL = '300000';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const suite = privateRedisSuites('The hung Redis session test');

/** Both nodes serve their caches (each heard itself and the other). */
async function serving(...nodes: FastifyInstance[]) {
  for (const node of nodes) {
    await vi.waitFor(() => expect(node.sessions.sessionMemory?.cache.serving).toBe(true), {
      timeout: 15_000,
      interval: 50,
    });
  }
}

/** `node` answers the session from its cache: no database read behind it. */
async function remembered(node: FastifyInstance, member: Member) {
  expect((await signedInAs(node, member))?.id).toBe(member.user.id);
  expect(node.sessions.sessionMemory?.cache.get(sha256(member.token), Date.now())).toBeDefined();
}

/**
 * Asks `node` for the session until it is refused, then for HOLD_MS more, each answer a refusal;
 * answers how long after `since` the first refusal came.
 */
async function refusedWithin(node: FastifyInstance, member: Member, since: number) {
  let refusedAt: number | undefined;
  for (;;) {
    const user = await signedInAs(node, member);
    const now = Date.now();
    if (refusedAt === undefined) {
      if (user === null) refusedAt = now;
      else if (now - since > BOUND_MS)
        throw new Error(`still served ${now - since} ms after the revocation`);
    } else {
      expect(user, 'served again after it was refused').toBeNull();
      if (now - refusedAt > HOLD_MS) return refusedAt - since;
    }
    await sleep(20);
  }
}

async function logout(node: FastifyInstance, member: Member) {
  const started = Date.now();
  const response = await postLogout(node, asBearer(member));
  expect(response.statusCode).toBe(200);
  // Waits for Redis at most its command timeout.
  expect(Date.now() - started).toBeLessThan(1_500);
}

suite('two nodes on a Redis that is frozen (SIGSTOP)', (dialect) => {
  const t = usePrivateRedisApp(dialect, { SESSION_CACHE_TTL_MS: TTL });
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    one = t.app;
    two = await buildApp(t.config);
    await two.ready();
  });
  afterEach(async () => {
    t.redis.freeze(false);
    await serving(one, two);
  });
  afterAll(async () => {
    await two?.close();
  });

  it('refuses at once on node two a session logged out on node one once the hang is noticed', async () => {
    await serving(one, two);
    const [member] = await signupMembers(one, 1);
    await remembered(two, member);

    t.redis.freeze(true);
    await sleep(BOUND_MS);
    expect(two.sessions.sessionMemory?.cache.serving).toBe(false);
    expect(two.sessions.sessionMemory?.cache.size).toBe(0);
    const since = Date.now();
    await logout(one, member);

    expect(await refusedWithin(two, member, since)).toBeLessThan(1_000);
    t.redis.freeze(false);
    await serving(one, two);
    expect(await signedInAs(two, member)).toBeNull();
  });

  it('refuses on node two within the window a session logged out on node one as Redis hangs', async () => {
    await serving(one, two);
    const [member] = await signupMembers(one, 1);
    await remembered(two, member);

    const since = Date.now();
    t.redis.freeze(true);
    await logout(one, member);

    expect(await refusedWithin(two, member, since)).toBeLessThanOrEqual(BOUND_MS);
    t.redis.freeze(false);
    await serving(one, two);
    expect(await signedInAs(two, member)).toBeNull();
  });
});

suite('two nodes, each reaching Redis through a proxy that can be cut', (dialect) => {
  let redis: PrivateRedis & { stop(): Promise<void> };
  let proxies: [CuttableProxy, CuttableProxy];
  let t: TestApp;
  let one: FastifyInstance;
  let two: FastifyInstance;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    proxies = [await startCuttableProxy(redis.port), await startCuttableProxy(redis.port)];
    t = await buildTestApp({
      dialect,
      env: { REDIS_URL: proxies[0].url, SESSION_CACHE_TTL_MS: TTL },
    });
    one = t.app;
    two = await buildApp({ ...t.config, redisUrl: proxies[1].url });
    await two.ready();
  });
  afterEach(async () => {
    for (const proxy of proxies) proxy.cut(false);
    await serving(one, two);
  });
  afterAll(async () => {
    for (const proxy of proxies ?? []) proxy.cut(false);
    await two?.close();
    await t?.close();
    await Promise.all((proxies ?? []).map((proxy) => proxy.close()));
    await redis?.stop();
  });

  for (const { what, fault, heal } of [
    {
      what: 'a session logged out on node one while node one is cut off',
      // Node two still hears Redis and itself; it is node one's silence that stops it.
      fault: () => proxies[0].cut(true),
      heal: () => proxies[0].cut(false),
    },
    {
      what: 'a session logged out on node one while node two is cut off',
      fault: () => proxies[1].cut(true),
      heal: () => proxies[1].cut(false),
    },
    {
      what: 'a session whose logout node one could not publish while its connection dropped',
      // Node one is back within moments and beats again: its next heartbeat carries the logout.
      fault: () => proxies[0].drop(),
      heal: () => undefined,
    },
  ]) {
    it(`refuses on node two, within the window, ${what}`, async () => {
      await serving(one, two);
      const [member] = await signupMembers(one, 1);
      await remembered(two, member);

      const since = Date.now();
      fault();
      await logout(one, member);

      expect(await refusedWithin(two, member, since)).toBeLessThanOrEqual(BOUND_MS);
      heal();
      await serving(one, two);
      expect(await signedInAs(two, member)).toBeNull();
    });
  }

  it('refuses on node two, within the window, the sessions of a member suspended on node one while node one is cut off', async () => {
    await serving(one, two);
    const [moderator, member, reporter] = await signupMembers(one, 3);
    await one.db
      .updateTable('users')
      .set({ is_moderator: 1 })
      .where('id', '=', moderator.user.id)
      .execute();
    const id = await report(one, reporter, 'member', member.user.id);
    const elsewhere = await loginAs(one, member);
    await remembered(two, member);
    await remembered(two, elsewhere);

    const since = Date.now();
    proxies[0].cut(true);
    await acted(one, moderator, id, 'suspend', { reason: 'Spam.' });

    expect(await refusedWithin(two, member, since)).toBeLessThanOrEqual(BOUND_MS);
    expect(await signedInAs(two, elsewhere)).toBeNull();
    proxies[0].cut(false);
    await serving(one, two);
    expect(await signedInAs(two, member)).toBeNull();
    expect(await signedInAs(two, elsewhere)).toBeNull();
  });
});
