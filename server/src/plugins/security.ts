import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Forbidden } from '../errors.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The origin the browser used to reach this server, as it would appear in an Origin header. */
export function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function isAllowedOrigin(origin: string, request: FastifyRequest, allowed: readonly string[]): boolean {
  return origin === ownOrigin(request) || allowed.includes(origin);
}

function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin && origin !== 'null') return origin;
  const referer = request.headers.referer;
  if (!referer) return origin === 'null' ? 'null' : undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/**
 * Cross-site request forgery guard: an unsafe request from a foreign page is refused, and one that
 * rides on the session cookie must name an allowed origin. Bearer-token calls carry no ambient
 * credential, so they need no origin.
 */
export function registerOriginCheck(app: FastifyInstance, allowed: readonly string[], cookieName: string) {
  app.addHook('onRequest', async (request) => {
    if (!UNSAFE.has(request.method) || !request.url.startsWith('/api/')) return;
    const origin = originOf(request);
    if (origin !== undefined) {
      if (!isAllowedOrigin(origin, request, allowed)) throw new Forbidden('Request origin not allowed.');
      return;
    }
    const usesCookie = request.cookies[cookieName] !== undefined && !request.headers.authorization;
    if (usesCookie) throw new Forbidden('Request origin not allowed.');
  });
}

/** Baseline headers on every response; the page's own policy allows no inline script. */
export function registerSecurityHeaders(app: FastifyInstance, allowed: readonly string[]) {
  const connect = ["'self'", ...allowed, ...allowed.map((origin) => origin.replace(/^http/, 'ws'))];
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html')) reply.header('Content-Security-Policy', csp);
    return payload;
  });
}
