import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { Unauthorized } from '../errors.ts';
import { type RevocationChannel, openRevocationChannel } from '../lib/revocations.ts';
import { createSessionCache } from '../lib/sessionCache.ts';
import { sweepEvery } from '../lib/sweep.ts';
import { bearerToken } from '../lib/sessionCookie.ts';
import type { Media } from '../media/index.ts';
import {
  type Authenticated,
  type SessionDeps,
  type SessionMemory,
  authenticate,
  deleteExpiredSessions,
} from '../members/sessions.ts';
import { FIRST_CONNECT_MS } from './redis.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The member behind this request, looked up once and remembered; null when signed out. */
    auth(): Promise<Authenticated | null>;
    /** The raw token the request carried (bearer first, then cookie). */
    sessionToken(): string | undefined;
    /** The signed-in member, set by `requireMember` on every member route before validation. */
    member: Authenticated;
  }
  interface FastifyInstance {
    /** What looking up a session needs: the database, the media URLs and the session lengths. */
    sessions: SessionDeps & { media: Media };
  }
}

/**
 * docs/decisions.md "Session cache": the node's cache, and with REDIS_URL the revocation channel
 * every node publishes on and listens to. Entries are served only while this node has heard,
 * within the last seconds, its own heartbeat and every other node's come back through Redis;
 * otherwise it forgets everything and reads sessions from the database until it hears them again,
 * so a revocation missed while Redis was away, hung or cut off is never served.
 */
function sessionMemory(app: FastifyInstance, config: Config): SessionMemory {
  const url = config.redisUrl;
  const publisher = app.redis.limits;
  let channel: RevocationChannel | undefined;
  const cache = createSessionCache<Authenticated>({
    ...config.sessionCache,
    ...(url ? { serving: () => channel?.trusted() ?? false } : {}),
  });
  if (url && publisher) {
    channel = openRevocationChannel({
      url,
      prefix: config.redisPrefix,
      publisher,
      cache,
      ttlMs: config.sessionCache.ttlMs,
      log: app.log,
    });
    const opened = channel;
    // The other nodes know this one before it revokes anything: they wait for its heartbeats.
    app.addHook('onReady', () => opened.heardItself(FIRST_CONNECT_MS));
    app.addHook('onClose', () => opened.close());
  }
  return {
    cache,
    async sessionsEnded(sessionIds) {
      cache.dropSessions(sessionIds);
      await channel?.publish({ sessions: [...sessionIds] });
    },
    async membersChanged(userIds) {
      cache.dropMembers(userIds);
      await channel?.publish({ members: [...userIds] });
    },
  };
}

const SESSION_SWEEP_MS = 60 * 60 * 1000;

/**
 * Sessions: every request can ask who is behind it. Sessions are rows; a node remembers the ones
 * it looked up in a small cache that every revocation reaches (docs/decisions.md "Session cache").
 */
export const authPlugin = fp(
  (app, _options, done) => {
    const { config } = app;
    const sessions: SessionDeps & { media: Media } = {
      db: app.db,
      media: app.media,
      session: config.session,
      sessionMemory: sessionMemory(app, config),
    };
    app.decorate('sessions', sessions);
    // Ended sessions are removed every hour.
    sweepEvery(app, SESSION_SWEEP_MS, 'session sweep', () =>
      deleteExpiredSessions(app.db, new Date().toISOString()),
    );
    const cache = new WeakMap<FastifyRequest, Promise<Authenticated | null>>();
    app.decorateRequest('sessionToken', function (this: FastifyRequest) {
      return bearerToken(this.headers.authorization) ?? this.cookies[config.session.cookie];
    });
    app.decorateRequest('auth', function (this: FastifyRequest) {
      let found = cache.get(this);
      if (!found) {
        const token = this.sessionToken();
        found = token ? authenticate(sessions, token) : Promise.resolve(null);
        cache.set(this, found);
      }
      return found;
    });
    app.decorateRequest('member', null as unknown as Authenticated);
    done();
  },
  {
    name: 'orbit-auth',
    dependencies: ['orbit-database', 'orbit-redis', 'orbit-media', '@fastify/cookie'],
  },
);

/**
 * The hook of the member routes' context: a 401 without a live session, before the request is
 * validated, so a signed-out caller learns nothing about the shape a call takes.
 */
export const requireMember: preValidationAsyncHookHandler = async (request) => {
  const auth = await request.auth();
  if (!auth) throw new Unauthorized();
  request.member = auth;
};
