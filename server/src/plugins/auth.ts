import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preValidationAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { Unauthorized } from '../errors.ts';
import { type Attempts, createAttempts } from '../features/auth/attempts.ts';
import {
  type AuthDeps,
  type Authenticated,
  type IssuedSession,
  type SessionMemory,
  authenticate,
} from '../features/auth/service.ts';
import { connectRedis } from '../lib/redis.ts';
import { type Revocation, createSessionCache, revocationChannel } from '../lib/sessionCache.ts';

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
    sessions: AuthDeps;
    /** One count of guesses per account for the whole node, shared through Redis when set. */
    attempts: Attempts;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/**
 * docs/decisions.md "Session cache": the node's cache, and with REDIS_URL the revocation channel
 * every node publishes on and listens to. Entries are served only while this node hears the
 * channel; a node that lost it forgets everything and reads sessions from the database until it
 * hears again, so a revocation missed while Redis was away is never served.
 */
function sessionMemory(app: FastifyInstance, config: Config): SessionMemory {
  const cache = createSessionCache<Authenticated>(config.sessionCache);
  const url = config.redisUrl;
  const publisher = app.redis.limits;
  const channel = revocationChannel(config.redisPrefix);
  const publish = (revocation: Revocation) => {
    publisher?.publish(channel, JSON.stringify(revocation)).catch((error: unknown) => {
      // Other nodes forget this session by the cache's TTL at the latest.
      app.log.warn({ err: error }, 'could not tell other nodes of a session revocation');
    });
  };
  const memory: SessionMemory = {
    cache,
    sessionsEnded(sessionIds) {
      cache.dropSessions(sessionIds);
      if (url) publish({ sessions: [...sessionIds] });
    },
    membersChanged(userIds) {
      cache.dropMembers(userIds);
      if (url) publish({ members: [...userIds] });
    },
  };
  if (!url || config.sessionCache.size === 0) return memory;

  cache.serving = false;
  // A connection of its own: a subscribed connection can do nothing else.
  const subscriber = connectRedis(url, app.log, 'sessions', { autoResubscribe: false });
  const { client } = subscriber;
  client.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    try {
      const revocation = JSON.parse(message) as Revocation;
      if (Array.isArray(revocation.sessions)) cache.dropSessions(revocation.sessions.map(String));
      if (Array.isArray(revocation.members)) cache.dropMembers(revocation.members.map(String));
    } catch {
      cache.clear();
    }
  });
  const deaf = () => {
    if (!cache.serving) return;
    cache.serving = false;
    cache.clear();
  };
  client.on('close', deaf);
  client.on('error', deaf);
  // Nothing waits for it: until it is subscribed, sessions are read from the database.
  client.on('ready', () => {
    client.subscribe(channel).then(
      () => {
        cache.clear();
        cache.serving = true;
      },
      () => deaf(),
    );
  });
  app.addHook('onClose', async () => {
    deaf();
    await subscriber.close();
  });
  return memory;
}

/**
 * Sessions: every request can ask who is behind it. Sessions are rows; a node remembers the ones
 * it looked up in a small cache that every revocation reaches (docs/decisions.md "Session cache").
 */
export const authPlugin = fp(
  (app, _options, done) => {
    const { config } = app;
    const sessions: AuthDeps = {
      db: app.db,
      media: app.media,
      session: config.session,
      sessionMemory: sessionMemory(app, config),
    };
    app.decorate('sessions', sessions);
    app.decorate(
      'attempts',
      createAttempts({ redis: app.redis.limits, prefix: config.redisPrefix }),
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
  { name: 'orbit-auth', dependencies: ['orbit-database', 'orbit-redis', 'orbit-media'] },
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

function isSecure(request: FastifyRequest, config: Config): boolean {
  return config.session.secure === 'auto' ? request.protocol === 'https' : config.session.secure;
}

/** Remember me: a 30-day cookie; otherwise a browser-session cookie (the server still expires it). */
export function setSessionCookie(reply: FastifyReply, config: Config, session: IssuedSession) {
  reply.setCookie(config.session.cookie, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(reply.request, config),
    ...(session.remember ? { expires: session.expiresAt } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(config.session.cookie, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(reply.request, config),
  });
}
