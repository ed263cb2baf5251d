/**
 * Failed secret checks counted per account (docs/decisions.md "Passwords and abuse"): login backs
 * off, the current-password check and the security-answer guess allow a few per window. Counted in
 * Redis when the server has one, so every node shares the count, else in a bounded map.
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { TooManyAttempts } from '../../errors.ts';
import { cannotCount } from '../../lib/redis.ts';

/** `max` attempts per window that opens with the first; then none until it closes. */
interface WindowPolicy {
  kind: 'window';
  max: number;
  windowMs: number;
}

/**
 * `free` attempts, then a wait after each that doubles from `baseMs` up to `capMs`. The count is
 * forgotten `forgetMs` after the last attempt.
 */
interface BackoffPolicy {
  kind: 'backoff';
  free: number;
  baseMs: number;
  capMs: number;
  forgetMs: number;
}

export type Policy = WindowPolicy | BackoffPolicy;

const MINUTE = 60_000;

export const POLICIES = {
  login: {
    kind: 'backoff',
    free: 5,
    baseMs: 1_000,
    capMs: 15 * MINUTE,
    forgetMs: 24 * 60 * MINUTE,
  },
  currentPassword: { kind: 'window', max: 5, windowMs: 15 * MINUTE },
  securityAnswer: { kind: 'window', max: 5, windowMs: 60 * MINUTE },
} as const satisfies Record<string, Policy>;

export type AttemptKind = keyof typeof POLICIES;

/** An account's count: attempts, the end of its wait and when it is forgotten (epoch ms). */
interface Count {
  n: number;
  until: number;
  expires: number;
}

/** Either the wait left (ms), or the count after this attempt. */
type Outcome = { waitMs: number } | { count: Count };

/** The rule both stores apply, in one place; Redis runs the same steps in ATTEMPT_SCRIPT. */
function attempt(policy: Policy, previous: Count | undefined, now: number): Outcome {
  const live = previous && previous.expires > now ? previous : { n: 0, until: 0, expires: 0 };
  if (policy.kind === 'window') {
    if (live.n >= policy.max) return { waitMs: live.expires - now };
    const expires = live.n === 0 ? now + policy.windowMs : live.expires;
    return { count: { n: live.n + 1, until: 0, expires } };
  }
  if (live.until > now) return { waitMs: live.until - now };
  const n = live.n + 1;
  const until = n >= policy.free ? now + backoffMs(policy, n) : 0;
  return { count: { n, until, expires: Math.max(until, now + policy.forgetMs) } };
}

function backoffMs(policy: BackoffPolicy, n: number): number {
  const doublings = Math.min(n - policy.free, 40);
  return Math.min(policy.baseMs * 2 ** doublings, policy.capMs);
}

// The same steps as `attempt`, atomic in Redis. KEYS[1]: the account's hash {n, u, e}.
// ARGV: now, kind (window|backoff), then max, windowMs or free, baseMs, capMs, forgetMs.
const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local u = tonumber(redis.call('HGET', KEYS[1], 'u') or '0')
local e = tonumber(redis.call('HGET', KEYS[1], 'e') or '0')
if e <= now then n = 0; u = 0; e = 0 end
if ARGV[2] == 'window' then
  local max, windowMs = tonumber(ARGV[3]), tonumber(ARGV[4])
  if n >= max then return e - now end
  if n == 0 then e = now + windowMs end
  n = n + 1
else
  local free, base, cap, forget = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
  if u > now then return u - now end
  n = n + 1
  u = 0
  if n >= free then
    local doublings = math.min(n - free, 40)
    u = now + math.min(base * 2 ^ doublings, cap)
  end
  e = math.max(u, now + forget)
end
redis.call('HSET', KEYS[1], 'n', n, 'u', u, 'e', e)
redis.call('PEXPIRE', KEYS[1], math.ceil(e - now))
return 0
`;

/** The store's side: one atomic step per attempt, and forgetting an account. */
interface Store {
  /** The wait left in ms, or 0 when the attempt was counted and may go ahead. */
  attempt(kind: AttemptKind, account: string, now: number): Promise<number>;
  forget(kind: AttemptKind, account: string): Promise<void>;
}

/** At most this many accounts are counted in memory; past it the least recently tried goes. */
const MEMORY_ACCOUNTS = 100_000;

function memoryStore(capacity: number): Store {
  const counts = new Map<string, Count>();
  return {
    attempt(kind, account, now) {
      const key = `${kind}:${account}`;
      const outcome = attempt(POLICIES[kind], counts.get(key), now);
      if ('waitMs' in outcome) return Promise.resolve(outcome.waitMs);
      // Deleted first, so the map's order is the order of last attempts.
      counts.delete(key);
      if (counts.size >= capacity) {
        for (const [other, count] of counts) if (count.expires <= now) counts.delete(other);
        const oldest = counts.keys().next();
        if (counts.size >= capacity && !oldest.done) counts.delete(oldest.value);
      }
      counts.set(key, outcome.count);
      return Promise.resolve(0);
    },
    forget(kind, account) {
      counts.delete(`${kind}:${account}`);
      return Promise.resolve();
    },
  };
}

function redisStore(redis: Redis, prefix: string): Store {
  const key = (kind: AttemptKind, account: string) => `${prefix}-attempts:${kind}:${account}`;
  return {
    async attempt(kind, account, now) {
      const policy: Policy = POLICIES[kind];
      const args =
        policy.kind === 'window'
          ? [policy.max, policy.windowMs]
          : [policy.free, policy.baseMs, policy.capMs, policy.forgetMs];
      const wait = await redis
        .eval(ATTEMPT_SCRIPT, 1, key(kind, account), now, policy.kind, ...args)
        .catch(cannotCount);
      return Number(wait);
    },
    async forget(kind, account) {
      await redis.del(key(kind, account)).catch(cannotCount);
    },
  };
}

export interface Attempts {
  /**
   * Counts an attempt at `account`'s secret, then runs `check` (true: the secret was right). While
   * the account waits, throws 429 `TooManyAttempts` without running `check`. A right secret
   * starts the count again.
   */
  check(kind: AttemptKind, account: string, check: () => Promise<boolean>): Promise<boolean>;
  /** Starts `account`'s count of `kind` again (a password reset ends a login backoff). */
  forget(kind: AttemptKind, account: string): Promise<void>;
}

export interface AttemptsOptions {
  /** Shared counts across nodes; without it, this process counts alone. */
  redis?: Redis | undefined;
  /** REDIS_PREFIX: keys are `${prefix}-attempts:<kind>:<account>`. */
  prefix?: string;
  now?: () => number;
  /** The in-memory store's bound (MEMORY_ACCOUNTS). */
  capacity?: number;
}

export function createAttempts(options: AttemptsOptions = {}): Attempts {
  const store = options.redis
    ? redisStore(options.redis, options.prefix ?? 'orbit')
    : memoryStore(options.capacity ?? MEMORY_ACCOUNTS);
  const now = options.now ?? Date.now;
  return {
    async check(kind, account, check) {
      // Counted before the secret is checked, so parallel guesses cannot all slip through.
      const waitMs = await store.attempt(kind, account, now());
      if (waitMs > 0) throw new TooManyAttempts(Math.max(1, Math.ceil(waitMs / 1000)));
      const right = await check();
      if (right) await store.forget(kind, account);
      return right;
    },
    forget: (kind, account) => store.forget(kind, account),
  };
}

/** The account a member's attempts count against. */
export const memberAccount = (userId: string): string => `u:${userId}`;

/**
 * The account a login or reset names: the member's id when one matches, else the identifier as
 * typed (trimmed, any case), so an unknown name backs off exactly like a real one.
 */
export function namedAccount(userId: string | undefined, identifier: string): string {
  if (userId) return memberAccount(userId);
  const digest = createHash('sha256').update(identifier.trim().toLowerCase()).digest('hex');
  return `i:${digest}`;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** One count of guesses per account for the whole node, shared through Redis when set. */
    attempts: Attempts;
  }
}

/** The node's one count of guesses, for the auth and account routes. */
export const attemptsPlugin = fp(
  (app, _options, done) => {
    app.decorate(
      'attempts',
      createAttempts({ redis: app.redis.limits, prefix: app.config.redisPrefix }),
    );
    done();
  },
  { name: 'orbit-attempts', dependencies: ['orbit-redis'] },
);
