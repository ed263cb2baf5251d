import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** The token of an `Authorization: Bearer …` header, if it carries one. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

function isSecure(request: FastifyRequest, config: Config): boolean {
  return config.session.secure === 'auto' ? request.protocol === 'https' : config.session.secure;
}

/** Remember me: a 30-day cookie; otherwise a browser-session cookie (the server still expires it). */
export function setSessionCookie(
  reply: FastifyReply,
  config: Config,
  session: { token: string; remember: boolean; expiresAt: Date },
) {
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
