/**
 * The node's memory of sessions it has looked up (docs/decisions.md "Session cache"): a bounded
 * LRU keyed by the session id, which is the SHA-256 of the token (the raw token is never held),
 * holding what authenticating the session answered. An entry is served only while its session
 * has not ended and for at most `ttlMs` after it was read; revocations drop entries at once.
 */
import { LRUCache } from 'lru-cache';

/** The Redis channel every node hears revocations on (docs/decisions.md "Session cache"). */
export const revocationChannel = (redisPrefix: string) => `${redisPrefix}:sessions:revoked`;

/** One revocation as it crosses nodes: sessions that ended, members whose sessions all must go. */
export interface Revocation {
  sessions?: string[];
  members?: string[];
}

export interface SessionCacheOptions {
  /** Most sessions remembered; the least recently used goes first. 0 turns the cache off. */
  size: number;
  /** How long an entry is trusted after it was read from the database. */
  ttlMs: number;
  /** The clock entries' ages are measured with (tests move it). */
  now?: () => number;
  /**
   * Whether entries may be served now: false while revocations from other nodes might go
   * unheard. Always, when unset (one node). Nothing is remembered while it is false.
   */
  serving?: () => boolean;
}

interface Entry<T> {
  value: T;
  userId: string;
  /** When the session ends, on the clock the caller passes as `now`. */
  endsAt: number;
}

export interface SessionCache<T> {
  /** The remembered value, or undefined when there is none or it is too old. */
  get(sessionId: string, now: number): T | undefined;
  /**
   * Looks the session up with `load` unless remembered. A result is remembered only when no
   * revocation reached this cache while `load` ran: one that did may concern what `load` read.
   */
  through(
    sessionId: string,
    now: number,
    load: () => Promise<{ value: T; userId: string; endsAt: number } | null>,
  ): Promise<T | null>;
  /** Forgets these sessions. */
  dropSessions(sessionIds: readonly string[]): void;
  /** Forgets every session of these members (their record changed or their sessions ended). */
  dropMembers(userIds: readonly string[]): void;
  /** Forgets everything (revocations may have been missed). */
  clear(): void;
  /** Whether entries may be served now (the `serving` option). */
  readonly serving: boolean;
  readonly size: number;
}

export function createSessionCache<T>(options: SessionCacheOptions): SessionCache<T> {
  // Each member's remembered sessions, so a change to the member drops them all without a scan.
  const byMember = new Map<string, Set<string>>();
  const entries = new LRUCache<string, Entry<T>>({
    max: Math.max(1, options.size),
    // Trusted for at most `ttlMs` after the read, on the cache's own clock (read at every check).
    ttl: options.ttlMs,
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
    // Whatever takes an entry out (its age, the size, a revocation) takes it out of its member's set.
    dispose: (entry, sessionId) => {
      const sessions = byMember.get(entry.userId);
      sessions?.delete(sessionId);
      if (sessions?.size === 0) byMember.delete(entry.userId);
    },
  });
  const serving = options.serving ?? (() => true);
  let revocations = 0;

  const cache: SessionCache<T> = {
    get serving() {
      return serving();
    },
    get size() {
      return entries.size;
    },
    get(sessionId, now) {
      if (!serving()) return undefined;
      const entry = entries.get(sessionId);
      if (!entry) return undefined;
      // The session's own end is checked on every hit, against the caller's clock.
      if (entry.endsAt <= now) {
        entries.delete(sessionId);
        return undefined;
      }
      return entry.value;
    },
    async through(sessionId, now, load) {
      const remembered = cache.get(sessionId, now);
      if (remembered !== undefined) return remembered;
      const before = revocations;
      const found = await load();
      if (!found) return null;
      if (options.size > 0 && serving() && revocations === before) {
        entries.delete(sessionId);
        entries.set(sessionId, { value: found.value, userId: found.userId, endsAt: found.endsAt });
        let sessions = byMember.get(found.userId);
        if (!sessions) byMember.set(found.userId, (sessions = new Set()));
        sessions.add(sessionId);
      }
      return found.value;
    },
    dropSessions(sessionIds) {
      revocations++;
      for (const id of sessionIds) entries.delete(id);
    },
    dropMembers(userIds) {
      revocations++;
      for (const userId of userIds) {
        for (const id of [...(byMember.get(userId) ?? [])]) entries.delete(id);
      }
    },
    clear() {
      revocations++;
      entries.clear();
    },
  };
  return cache;
}
