import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { TooManyRequests } from '../errors.ts';
import { cannotCount } from './redis.ts';

/** An upload's place, held from before its body is read until its answer is ready. */
type UploadSlot = () => Promise<void>;

export interface UploadLimits {
  /**
   * Takes one of `who`'s places (a member, or a client address before there is a member), or
   * throws 429: too many at once, or too many this past hour.
   */
  begin(who: string): Promise<UploadSlot>;
}

export interface UploadLimitSettings {
  atOnce: number;
  perHour: number;
}

const HOUR_MS = 3_600_000;
/**
 * A place not given back within this time is free again: a node that died mid-upload must not
 * keep a member's places for ever. Longer than any upload takes (20 MB even at 512 kbit/s).
 */
const SLOT_LEASE_MS = 10 * 60_000;
/** When to try again after "too many at once": the others' answers usually come within this. */
const AT_ONCE_RETRY_SECONDS = 5;

const UPLOAD_LIMIT_MESSAGES = {
  atOnce: 'You’re uploading too much at once. Wait for the others to finish.',
  perHour: (limit: number, seconds: number) =>
    `You’ve uploaded ${limit} pictures in the last hour. Try again in ${inWords(seconds)}.`,
} as const;

function inWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The refusal for an answer of `check`: 0 allowed, 1 too many at once, 2 too many this hour. */
function refusal(verdict: number, waitMs: number, settings: UploadLimitSettings): TooManyRequests {
  if (verdict === 1)
    return new TooManyRequests(UPLOAD_LIMIT_MESSAGES.atOnce, AT_ONCE_RETRY_SECONDS);
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new TooManyRequests(UPLOAD_LIMIT_MESSAGES.perHour(settings.perHour, seconds), seconds);
}

/**
 * Both limits in one step, so two nodes cannot both take a member's last place. KEYS: the places
 * held (scored by when their lease ends) and the uploads begun (scored by when). ARGV: now,
 * lease, at once, per hour, hour, the new place's id. Answers {verdict, wait in ms}.
 */
const BEGIN_SCRIPT = `
local now = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local atOnce = tonumber(ARGV[3])
local perHour = tonumber(ARGV[4])
local hour = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - hour)
local begun = redis.call('ZCARD', KEYS[2])
if begun >= perHour then
  local oldest = redis.call('ZRANGE', KEYS[2], begun - perHour, begun - perHour, 'WITHSCORES')
  return {2, tonumber(oldest[2]) + hour - now}
end
if redis.call('ZCARD', KEYS[1]) >= atOnce then return {1, 0} end
redis.call('ZADD', KEYS[1], now + lease, ARGV[6])
redis.call('ZADD', KEYS[2], now, ARGV[6])
redis.call('PEXPIRE', KEYS[1], lease)
redis.call('PEXPIRE', KEYS[2], hour)
return {0, 0}
`;

/**
 * Counted in Redis, so every node shares one budget per member (docs/decisions.md "Uploads are
 * checked and cleaned"). While Redis cannot count, an upload is refused before its body is read
 * with 503 `Try again in a moment.` (docs/decisions.md "Rate limits fail closed when Redis is down").
 */
export function redisUploadLimits(
  redis: Redis,
  prefix: string,
  settings: UploadLimitSettings,
  onReleaseFailed: (error: unknown) => void,
  now: () => number = Date.now,
): UploadLimits {
  return {
    async begin(who) {
      const held = `${prefix}-uploads:${who}:held`;
      const begun = `${prefix}-uploads:${who}:begun`;
      const id = randomUUID();
      const [verdict, waitMs] = (await redis
        .eval(
          BEGIN_SCRIPT,
          2,
          held,
          begun,
          now(),
          SLOT_LEASE_MS,
          settings.atOnce,
          settings.perHour,
          HOUR_MS,
          id,
        )
        .catch(cannotCount)) as [number, number];
      if (verdict !== 0) throw refusal(verdict, waitMs, settings);
      return async () => {
        // A place that cannot be given back now frees itself when its lease ends.
        await redis.zrem(held, id).catch(onReleaseFailed);
      };
    },
  };
}

/** Counted in this process: one node alone. */
export function memoryUploadLimits(
  settings: UploadLimitSettings,
  now: () => number = Date.now,
): UploadLimits {
  const members = new Map<string, { held: number; begun: number[] }>();
  let lastPrune = now();
  /** Forgets members with nothing held and nothing begun in the past hour. */
  const prune = (at: number) => {
    if (at - lastPrune < HOUR_MS) return;
    lastPrune = at;
    for (const [who, state] of members) {
      state.begun = state.begun.filter((time) => time > at - HOUR_MS);
      if (state.held === 0 && state.begun.length === 0) members.delete(who);
    }
  };
  return {
    begin(who) {
      const at = now();
      prune(at);
      const state = members.get(who) ?? { held: 0, begun: [] };
      members.set(who, state);
      state.begun = state.begun.filter((time) => time > at - HOUR_MS);
      const over = state.begun.length - settings.perHour;
      if (over >= 0) {
        const oldest = state.begun[over] ?? at;
        return Promise.reject(refusal(2, oldest + HOUR_MS - at, settings));
      }
      if (state.held >= settings.atOnce) return Promise.reject(refusal(1, 0, settings));
      state.held += 1;
      state.begun.push(at);
      let released = false;
      return Promise.resolve(() => {
        if (!released) {
          released = true;
          state.held -= 1;
          if (state.held === 0 && state.begun.length === 0) members.delete(who);
        }
        return Promise.resolve();
      });
    },
  };
}
