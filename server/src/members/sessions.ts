/**
 * The member behind a session (docs/decisions.md "Session cache"): sessions are rows, looked up by
 * the SHA-256 of their token with their member in one statement, and remembered by the node in a
 * cache every revocation reaches. The sessions plugin, the socket handshake and the auth feature
 * all find members this one way.
 */
import { rowsChanged } from '../db/changes.ts';
import type { Db } from '../db/index.ts';
import { prefixedColumns, takePrefixed } from '../db/joined.ts';
import type { SessionRow, UserRow } from '../db/schema.ts';
import type { SessionCache } from '../lib/sessionCache.ts';
import { hashToken } from '../lib/tokens.ts';

export interface Authenticated {
  user: UserRow;
  sessionId: string;
  /** When the session ends (sessions do not slide: a session's end is fixed when it is issued). */
  expiresAt: Date;
}

/**
 * docs/decisions.md "Session cache": sessions remembered by this node, and the word every node
 * gets when a session ends early or a member's record changes.
 */
export interface SessionMemory {
  cache: SessionCache<Authenticated>;
  /**
   * These sessions were ended (logout): forget them here and on every node. Resolves once every
   * other node has said it forgot them (at most half a second after Redis took the word), or once
   * Redis could not take it (it then goes with this node's next heartbeat). Never rejects.
   */
  sessionsEnded(sessionIds: readonly string[]): Promise<void>;
  /**
   * These members' records changed or their sessions ended: forget all their sessions everywhere
   * (resolves as above).
   */
  membersChanged(userIds: readonly string[]): Promise<void>;
}

/** What finding the member behind a session needs. */
export interface SessionDeps {
  db: Db;
  session: { ttlMs: number; rememberMs: number };
  now?: () => Date;
  /** The node's session cache and the revocations that keep it (and other nodes') right. */
  sessionMemory?: SessionMemory;
}

const SESSION_COLUMNS = ['id', 'remember', 'created_at', 'expires_at'] as const;

/** A session that has not expired, with its member, in one query (it runs on every request). */
async function findLiveSession(
  db: Db,
  id: string,
  now: string,
): Promise<{ session: SessionRow; user: UserRow } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(prefixedColumns('sessions', 'session_', SESSION_COLUMNS))
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now)
    // A suspended member's session is refused even if one outlived the suspension (a login that
    // checked the password before it and wrote its session after): no query of its own.
    .where('users.suspended_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const [user, session] = takePrefixed(row, 'session_');
  return { session: { ...session, user_id: user.id }, user };
}

/** The live session a token names and its member, through the node's cache; null when none. */
export async function authenticate(
  deps: SessionDeps,
  token: string,
): Promise<Authenticated | null> {
  if (!token || token.length > 200) return null;
  const sessionId = hashToken(token);
  const now = deps.now ? deps.now() : new Date();
  const load = async () => {
    const found = await findLiveSession(deps.db, sessionId, now.toISOString());
    if (!found) return null;
    const expiresAt = new Date(found.session.expires_at);
    // Shared by every request the cache answers: nobody may change it in place.
    const value: Authenticated = { user: Object.freeze(found.user), sessionId, expiresAt };
    return { value, userId: found.user.id, endsAt: expiresAt.getTime() };
  };
  const memory = deps.sessionMemory;
  if (memory) return memory.cache.through(sessionId, now.getTime(), load);
  return (await load())?.value ?? null;
}

/** Removes the sessions that have ended by `now`; answers how many. */
export function deleteExpiredSessions(db: Db, now: string): Promise<number> {
  return rowsChanged(db.deleteFrom('sessions').where('expires_at', '<=', now));
}
