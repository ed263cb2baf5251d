import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Unavailable } from '../errors.ts';
import { CACHE_CONTROL } from './caching.ts';
import {
  MEDIA_CACHE_CONTROL,
  type MediaInfo,
  type MediaStore,
  etagMatches,
  isMediaKey,
} from '../media/index.ts';

const NOT_APP_ROUTES = /^\/(api|uploads|socket\.io)(\/|$)/;

export const PICTURE_UNAVAILABLE = 'That picture cannot be loaded right now. Try again shortly.';

function mediaHeaders(reply: FastifyReply, info: MediaInfo) {
  reply.header('Cache-Control', MEDIA_CACHE_CONTROL);
  reply.header('ETag', info.etag);
  reply.header('Content-Type', info.contentType);
  reply.header('Content-Length', String(info.size));
  reply.header('Last-Modified', info.lastModified.toUTCString());
}

function notModified(reply: FastifyReply, etag: string | undefined) {
  if (etag) reply.header('ETag', etag);
  reply.header('Cache-Control', MEDIA_CACHE_CONTROL);
  return reply.status(304).send();
}

/**
 * Pictures under `/uploads/<key>` on every node, streamed from the store whichever it is. Only
 * keys the app makes are looked up; anything else (dotfiles, temporary files, `..`) is not found.
 * Random names never change content, so every answer may be cached for a year.
 */
export function registerUploads(app: FastifyInstance, store: MediaStore) {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/uploads/*',
    handler: async (request, reply) => {
      const key = (request.params as { '*'?: string })['*'] ?? '';
      if (!isMediaKey(key)) return reply.callNotFound();
      const ifNoneMatch = request.headers['if-none-match'];
      try {
        if (request.method === 'HEAD') {
          const info = await store.stat(key);
          if (!info) return reply.callNotFound();
          if (etagMatches(ifNoneMatch, info.etag)) return notModified(reply, info.etag);
          mediaHeaders(reply, info);
          return reply.send();
        }
        const read = await store.get(key, { ifNoneMatch });
        switch (read.status) {
          case 'missing':
            return reply.callNotFound();
          case 'not-modified':
            return notModified(reply, read.etag);
          case 'found':
            mediaHeaders(reply, read.info);
            return reply.send(read.body);
        }
      } catch (error) {
        request.log.error({ err: error, key }, 'media store read failed');
        throw new Unavailable(PICTURE_UNAVAILABLE);
      }
    },
  });
}

/**
 * The built app: hashed assets cached for a year; everything else revalidated on every use, above
 * all index.html, the service worker (sw.js) and manifest.webmanifest, so a new deploy is seen at
 * once (docs/decisions.md "Caching"); and any unknown path that a browser navigates to answered with index.html so the router
 * can take it. Answers whether a build was found.
 */
export async function registerApp(app: FastifyInstance, staticDir: string): Promise<boolean> {
  const indexFile = path.join(staticDir, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  indexFiles.set(app, indexFile);
  await app.register(fastifyStatic, {
    root: staticDir,
    wildcard: false,
    index: false,
    // Source maps stay on the server's disk for whoever runs it; they are not published.
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    setHeaders: (res, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', hashed ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate);
    },
  });
  app.get('/', (_request, reply) => sendIndex(reply));
  return true;
}

/** Files the build could hold; usernames may contain dots, so /profile/a.b is still a page. */
const FILE_EXTENSIONS =
  /\.(js|mjs|css|map|json|webmanifest|html|txt|xml|png|jpe?g|gif|webp|avif|svg|ico|woff2?)$/i;

function looksLikeFile(pathName: string): boolean {
  return FILE_EXTENSIONS.test(path.extname(pathName));
}

export function wantsAppShell(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !NOT_APP_ROUTES.test(request.url) &&
    !looksLikeFile(request.url.split('?')[0] ?? '') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/** Each app's index.html, for `sendIndex`. */
const indexFiles = new WeakMap<FastifyInstance, string>();

interface IndexDocument {
  mtimeMs: number;
  etag: string;
  bodies: { identity: Buffer; br: Buffer; gzip: Buffer };
}
const documents = new Map<string, IndexDocument>();

/** index.html with its compressed copies, made again only when the file changes (a new build). */
async function indexDocument(file: string): Promise<IndexDocument> {
  const { mtimeMs } = await fs.promises.stat(file);
  const known = documents.get(file);
  if (known?.mtimeMs === mtimeMs) return known;
  const identity = await fs.promises.readFile(file);
  const document: IndexDocument = {
    mtimeMs,
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    bodies: { identity, br: zlib.brotliCompressSync(identity), gzip: zlib.gzipSync(identity) },
  };
  documents.set(file, document);
  return document;
}

/** br, else gzip, when the request accepts it (not with q=0). */
function contentEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, ...params]) => !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param)))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * index.html for every app route, compressed (it carries the first screen's styles, about 10 kB,
 * and most app routes are answered by the not-found handler, which the compression plugin does
 * not reach), with an ETag to revalidate against. `no-cache`, never `no-store`, which would keep
 * the page out of the back/forward cache (docs/decisions.md "Back/forward cache").
 */
export async function sendIndex(reply: FastifyReply) {
  reply.header('Cache-Control', CACHE_CONTROL.revalidate);
  const indexFile = indexFiles.get(reply.server);
  if (!indexFile) return reply.sendFile('index.html');
  const document = await indexDocument(indexFile);
  const vary = reply.getHeader('Vary');
  reply
    .header('ETag', document.etag)
    .header('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (etagMatches(reply.request.headers['if-none-match'], document.etag))
    return reply.status(304).send();
  const encoding = contentEncoding(reply.request.headers['accept-encoding']);
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(document.bodies[encoding ?? 'identity']);
}
