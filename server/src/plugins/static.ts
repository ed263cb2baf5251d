import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const YEAR_SECONDS = 31_536_000;
const NOT_APP_ROUTES = /^\/(api|uploads|socket\.io)(\/|$)/;

/** Uploaded files: random names never change content, so they are cached for a year. */
export async function registerUploads(app: FastifyInstance, uploadsDir: string) {
  fs.mkdirSync(uploadsDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: uploadsDir,
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    setHeaders: (res, filePath) => {
      if (filePath.endsWith('.partial')) return;
      res.header('Cache-Control', `public, max-age=${YEAR_SECONDS}, immutable`);
    },
    allowedPath: (pathName) => !pathName.endsWith('.partial'),
  });
}

/**
 * The built app: hashed assets cached for a year; everything else revalidated on every use, above
 * all index.html, the service worker (sw.js) and manifest.webmanifest, so a new deploy is seen at
 * once; and any unknown path that a browser navigates to answered with index.html so the router
 * can take it. Answers whether a build was found.
 */
export async function registerApp(app: FastifyInstance, staticDir: string): Promise<boolean> {
  const indexFile = path.join(staticDir, 'index.html');
  if (!fs.existsSync(indexFile)) return false;
  await app.register(fastifyStatic, {
    root: staticDir,
    wildcard: false,
    index: false,
    setHeaders: (res, filePath) => {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header(
        'Cache-Control',
        hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache',
      );
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

export function sendIndex(reply: FastifyReply) {
  return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
}
