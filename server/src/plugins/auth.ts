import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { Unauthorized } from '../errors.ts';
import {
  type AuthDeps,
  type Authenticated,
  type IssuedSession,
  authenticate,
} from '../features/auth/service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The member behind this request, looked up once and remembered. */
    auth(): Promise<Authenticated | null>;
    /** The member behind this request, or a 401. */
    member(): Promise<Authenticated>;
    /** The raw token the request carried (bearer first, then cookie). */
    sessionToken(): string | undefined;
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps, config: Config) {
  const cache = new WeakMap<FastifyRequest, Promise<Authenticated | null>>();
  app.decorateRequest('sessionToken', function (this: FastifyRequest) {
    return bearerToken(this.headers.authorization) ?? this.cookies[config.session.cookie];
  });
  app.decorateRequest('auth', function (this: FastifyRequest) {
    let found = cache.get(this);
    if (!found) {
      const token = this.sessionToken();
      found = token ? authenticate(deps, token) : Promise.resolve(null);
      cache.set(this, found);
    }
    return found;
  });
  app.decorateRequest('member', async function (this: FastifyRequest) {
    const auth = await this.auth();
    if (!auth) throw new Unauthorized();
    return auth;
  });
}

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
