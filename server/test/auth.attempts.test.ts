/**
 * The per-account count of secret checks (server/src/features/auth/attempts.ts), in memory and in
 * Redis, on a clock the test moves; and two nodes on one Redis sharing a login backoff. Redis at
 * REDIS_TEST_URL (database 12) is required for the Redis half: unreachable, it is skipped with a
 * warning, or fails with ORBIT_REQUIRE_ALL=1.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Attempts, createAttempts } from '../src/features/auth/attempts.ts';
import { TooManyRequests } from '../src/errors.ts';
import {
  REDIS_TEST_URL,
  describeWithRedis,
  forEachDialect,
  postLogin,
  useTestApp,
} from './helpers.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

const redisUrl = (() => {
  const url = new URL(REDIS_TEST_URL);
  url.pathname = '/12';
  return url.toString();
})();
const withRedis = await describeWithRedis('the Redis store of auth attempts');

/** The wait an attempt is refused with, in seconds, or 'ran' when its check ran. */
async function outcome(attempts: Attempts, kind: 'login' | 'currentPassword', right = false) {
  let ran = false;
  try {
    await attempts.check(kind, 'u:nova', () => {
      ran = true;
      return Promise.resolve(right);
    });
    return ran ? 'ran' : 'not run';
  } catch (error) {
    if (error instanceof TooManyRequests) return error.retryAfterSeconds;
    throw error;
  }
}

function storeSuite(make: (now: () => number) => Attempts) {
  let clock = Date.UTC(2026, 0, 1);
  const now = () => clock;
  let attempts: Attempts;
  beforeAll(() => {
    attempts = make(now);
  });
  const failLogins = async (times: number) => {
    for (let index = 0; index < times; index += 1)
      expect(await outcome(attempts, 'login')).toBe('ran');
  };

  it('lets 5 logins fail, then doubles the wait from 1 s to 15 min; a right one after it works', async () => {
    await failLogins(5);
    const waits = [];
    for (let index = 0; index < 12; index += 1) {
      // Right after a failure even the right password is refused, without being checked.
      const wait = await outcome(attempts, 'login', true);
      waits.push(wait);
      if (typeof wait !== 'number') break;
      clock += wait * SECOND - 1;
      expect(await outcome(attempts, 'login', true)).toBe(1);
      clock += 1;
      expect(await outcome(attempts, 'login')).toBe('ran');
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    clock += 15 * MINUTE;
    expect(await outcome(attempts, 'login', true)).toBe('ran');
    // The right password started the count again: 5 more may fail.
    await failLogins(5);
    clock += SECOND;
    await attempts.forget('login', 'u:nova');
  });

  it('forgets a login count a day after the last attempt', async () => {
    await failLogins(5);
    clock += 24 * 60 * MINUTE;
    await failLogins(5);
    // Counted from 1 again: the fifth failure waits 1 s, not the tenth's 32 s.
    expect(await outcome(attempts, 'login', true)).toBe(1);
    clock += SECOND;
    expect(await outcome(attempts, 'login', true)).toBe('ran');
  });

  it('allows 5 current passwords per 15 minutes, from the first', async () => {
    for (let index = 0; index < 5; index += 1) {
      expect(await outcome(attempts, 'currentPassword')).toBe('ran');
      clock += MINUTE;
    }
    expect(await outcome(attempts, 'currentPassword', true)).toBe(10 * 60);
    clock += 10 * MINUTE - 1;
    expect(await outcome(attempts, 'currentPassword', true)).toBe(1);
    clock += 1;
    expect(await outcome(attempts, 'currentPassword', true)).toBe('ran');
  });

  it('counts parallel guesses before checking them, so no more than 5 run', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 12 }, () => outcome(attempts, 'currentPassword')),
    );

    expect(guesses.filter((result) => result === 'ran')).toHaveLength(5);
    clock += 15 * MINUTE;
  });
}

describe('auth attempts in memory', () => {
  storeSuite((now) => createAttempts({ now }));

  it('keeps at most `capacity` accounts, dropping the one counted longest ago', async () => {
    const attempts = createAttempts({ capacity: 2 });
    const fail = (account: string) =>
      attempts.check('currentPassword', account, () => Promise.resolve(false));
    for (let index = 0; index < 5; index += 1) await fail('u:first');
    for (let index = 0; index < 5; index += 1) await fail('u:second');
    await expect(fail('u:first')).rejects.toBeInstanceOf(TooManyRequests);
    await fail('u:third');

    await expect(fail('u:second')).rejects.toBeInstanceOf(TooManyRequests);
    await expect(fail('u:first')).resolves.toBe(false);
  });
});

withRedis('auth attempts in Redis', () => {
  const prefix = `orbit-test-${randomBytes(4).toString('hex')}`;
  const redis = new Redis(redisUrl);
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}-*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  storeSuite((now) => createAttempts({ redis, prefix, now }));

  it('keeps each count under the prefix, expiring with its window', async () => {
    const attempts = createAttempts({ redis, prefix });
    await attempts.check('currentPassword', 'u:vega', () => Promise.resolve(false));

    const ttl = await redis.pttl(`${prefix}-attempts:currentPassword:u:vega`);
    expect(ttl).toBeGreaterThan(14 * MINUTE);
    expect(ttl).toBeLessThanOrEqual(15 * MINUTE);
  });
});

forEachDialect((dialect) => {
  withRedis('two nodes on one Redis', () => {
    const env = {
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `orbit-test-${randomBytes(4).toString('hex')}`,
    };
    const [first, second] = [useTestApp(dialect, env), useTestApp(dialect, env)];
    const cleanup = new Redis(redisUrl);
    afterAll(async () => {
      const keys = await cleanup.keys(`${env.REDIS_PREFIX}-*`);
      if (keys.length) await cleanup.del(...keys);
      await cleanup.quit();
    });

    it('share one login backoff per account', async () => {
      const identifier = `nobody_${randomBytes(4).toString('hex')}`;
      const statuses = [];
      for (const node of [first, first, first, second, second])
        statuses.push((await postLogin(node.app, { identifier, password: 'x' })).statusCode);

      const next = await postLogin(first.app, { identifier, password: 'x' });

      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect(next.statusCode).toBe(429);
      expect(next.headers['retry-after']).toBe('1');
    });
  });
});
