import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { NEVER_KEPT_PATHS } from '../../../src/contracts/endpoints.lists.ts';
import { CACHE_CONTROL } from '../lib/cacheControl.ts';
import { API_DOCS_PATH } from './docs.ts';

/** Paths the operator's tools poll: always fresh. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The Cache-Control a successful GET of `url` (the route's pattern) gets when its handler set
 * none; undefined for the paths that set their own (static files, /uploads).
 */
function cacheControlFor(url: string): string | undefined {
  if (PROBES.has(url)) return CACHE_CONTROL.never;
  // A session token, a key that may change, a live probe, a member's whole data: marked
  // `neverKept` in the endpoint table.
  if (NEVER_KEPT_PATHS.has(url)) return CACHE_CONTROL.never;
  if (url === API_DOCS_PATH || url.startsWith(`${API_DOCS_PATH}/`)) return CACHE_CONTROL.revalidate;
  if (url.startsWith('/api/')) return CACHE_CONTROL.member;
  return undefined;
}

/** Answers smaller than this carry no ETag: a 304 would save next to nothing (as compression). */
const ETAG_MIN_BYTES = 1024;

function etagOf(payload: string | Buffer): string {
  return `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
}

function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || `W/${value}` === etag;
  });
}

function setCaching(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (reply.hasHeader('cache-control')) return payload;
  const reading = request.method === 'GET' || request.method === 'HEAD';
  const policy =
    reading && reply.statusCode < 400
      ? cacheControlFor(request.routeOptions.url ?? request.url.split('?')[0] ?? '')
      : CACHE_CONTROL.never;
  if (!policy) return payload;
  reply.header('Cache-Control', policy);
  // A revalidated JSON answer gets a validator, so an unchanged one comes back as a bodiless 304.
  if (
    policy === CACHE_CONTROL.member &&
    reply.statusCode === 200 &&
    (typeof payload === 'string' || Buffer.isBuffer(payload)) &&
    Buffer.byteLength(payload) >= ETAG_MIN_BYTES
  ) {
    const etag = etagOf(payload);
    reply.header('ETag', etag);
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
  }
  return payload;
}

/**
 * Sets the Cache-Control of every answer that has none yet, and ETags on member answers. Register
 * it before compression, so the ETag is taken from the JSON text and a 304 is never compressed.
 */
export const cachingPlugin = fp(
  (app, _options, done) => {
    app.addHook('onSend', (request, reply, payload, next) => {
      next(null, setCaching(request, reply, payload));
    });
    done();
  },
  { name: 'orbit-caching' },
);
