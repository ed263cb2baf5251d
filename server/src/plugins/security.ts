import type { IncomingMessage } from 'node:http';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Forbidden } from '../errors.ts';
import { type ProxyTrust, pageOrigin } from '../lib/proxy.ts';
import { bearerToken } from '../lib/sessionCookie.ts';
import { appStyleHashes } from './static.ts';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface OriginPolicy {
  /** Origins of pages served elsewhere that may call with cookies (APP_ORIGIN). */
  allowed: readonly string[];
  /** Proxies whose X-Forwarded-Proto/-Host name the page's own origin. */
  trust: ProxyTrust | false;
}

/**
 * Whether a page at `origin` may call: the server's own origin (as the browser reached it, through a
 * trusted proxy too) or one listed in APP_ORIGIN. HTTP and the socket handshake both ask this.
 */
export function isAllowedOrigin(
  origin: string,
  raw: IncomingMessage,
  policy: OriginPolicy,
): boolean {
  return origin === pageOrigin(raw, policy.trust) || policy.allowed.includes(origin);
}

/**
 * The page a request comes from. An `Origin` header is the whole answer when present: `null` (a
 * sandboxed frame, a redirect from another site, a local file) or an empty one names no page and is
 * refused, never read past to a Referer that may say otherwise. Without one, the Referer's origin.
 */
function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/**
 * Whether the request was routed to an /api route. The router decodes the path (`/%61pi/…` reaches
 * `/api/…`), so the matched route's pattern is tested, not the raw URL.
 */
function isApiRoute(request: FastifyRequest): boolean {
  return (request.routeOptions.url ?? request.url).startsWith('/api/');
}

/**
 * Cross-site request forgery guard: an unsafe request from a foreign page is refused, and one that
 * rides on the session cookie must name an allowed origin. Bearer-token calls carry no ambient
 * credential, so they need no origin.
 */
function registerOriginCheck(app: FastifyInstance, policy: OriginPolicy & { cookieName: string }) {
  const refused = (request: FastifyRequest): boolean => {
    if (!UNSAFE.has(request.method) || !isApiRoute(request)) return false;
    const origin = originOf(request);
    if (origin !== undefined) return !isAllowedOrigin(origin, request.raw, policy);
    // Exactly the case in which request.auth() falls back to the cookie.
    return (
      request.cookies[policy.cookieName] !== undefined &&
      !bearerToken(request.headers.authorization)
    );
  };
  app.addHook('onRequest', (request, _reply, done) => {
    done(refused(request) ? new Forbidden('Request origin not allowed.') : undefined);
  });
}

/**
 * Baseline headers on every response (`@fastify/helmet`); the page's own policy allows no inline
 * script, and no inline style but the one the build inlined, by its hash: of the build served
 * when the answer is sent, so a new build's page is allowed its styles without a restart.
 * Pictures served by a CDN or a public bucket (MEDIA_PUBLIC_URL) come from its origin.
 */
async function registerSecurityHeaders(
  app: FastifyInstance,
  options: {
    allowed: readonly string[];
    mediaPublicUrl?: string | undefined;
    trust: ProxyTrust | false;
    /** The `sha256-…` hashes of the styles the build being served inlined. */
    styleHashes: () => readonly string[];
  },
) {
  const { allowed, mediaPublicUrl, trust } = options;
  const media = mediaPublicUrl ? [new URL(mediaPublicUrl).origin] : [];
  // Only origins really called (docs/decisions.md "APP_ORIGIN by environment"): this server and
  // APP_ORIGIN's entries with their sockets. Pictures on MEDIA_PUBLIC_URL are only shown (img-src):
  // neither the page nor the service worker fetches them.
  const connect = ["'self'", ...allowed, ...allowed.map((origin) => origin.replace(/^http/, 'ws'))];
  const images = ["'self'", 'data:', 'blob:', ...media];
  const directives = (styleHashes: readonly string[]) => ({
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // React sets style properties through the CSSOM, which style-src does not govern.
    styleSrc: ["'self'", ...styleHashes.map((hash) => `'${hash}'`)],
    imgSrc: images,
    fontSrc: ["'self'"],
    connectSrc: connect,
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  });
  const headers = await helmetHeaders({
    contentSecurityPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // A page on APP_ORIGIN (a split deployment) loads /uploads pictures from here.
    crossOriginResourcePolicy: false,
    // Sent below only when the page was reached over https (directly or through a trusted proxy).
    strictTransportSecurity: false,
  });
  // Set before the route runs, as @fastify/helmet does: a route may still change one.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // The policy is made again only when a new build brings its own hashes.
  let policy: { for: readonly string[] | null; header: string } = { for: null, header: '' };
  app.addHook('onSend', (request, reply, payload, done) => {
    const styleHashes = options.styleHashes();
    if (policy.for !== styleHashes)
      policy = { for: styleHashes, header: contentSecurityPolicy(directives(styleHashes)) };
    if (!reply.hasHeader('Content-Security-Policy'))
      reply.header('Content-Security-Policy', policy.header);
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (pageOrigin(request.raw, trust).startsWith('https:'))
      reply.header('Strict-Transport-Security', HSTS);
    done(null, payload);
  });
}

/** A Content-Security-Policy header as helmet writes one: `default-src 'self';script-src …`. */
function contentSecurityPolicy(directives: Record<string, readonly string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) =>
      [name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`), ...sources].join(' '),
    )
    .join(';');
}

/**
 * The headers helmet sends with these options, worked out once: none depends on the request (no
 * CSP nonces), and @fastify/helmet would build helmet's middleware again for every request, a
 * large share of a light route's time (docs/decisions.md "Session cache").
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(fastifyHelmet, options);
  probe.get('/', () => '');
  const response = await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  const ours = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => !ours.has(name))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** Orbit uses none of these powerful features; no page, nor anything it embeds, may ask for them. */
const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()';
/** A year of https only for this host and its subdomains, once a member has reached it over https. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** Security headers on every answer and the origin check of every unsafe call. */
export const securityPlugin = fp<{ trust: ProxyTrust | false }>(
  async (app, { trust }) => {
    const { config } = app;
    await registerSecurityHeaders(app, {
      allowed: config.appOrigins,
      mediaPublicUrl: config.mediaPublicUrl,
      trust,
      styleHashes: () => appStyleHashes(app),
    });
    registerOriginCheck(app, {
      allowed: config.appOrigins,
      cookieName: config.session.cookie,
      trust,
    });
  },
  { name: 'orbit-security', dependencies: ['orbit-database'] },
);
