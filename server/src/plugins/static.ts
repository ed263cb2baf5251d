import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  BOOT_ELEMENT_ID,
  FIRST_SCREENS,
  PROFILE_ROUTE_SOURCES,
  PROFILE_SLOTS,
  profileFirstScreen,
} from '../../../src/contracts/constants.ts';
import {
  DEFAULT_THEME,
  THEMES,
  THEME_COOKIE,
  type Theme,
  isTheme,
} from '../../../src/contracts/theme.ts';
import { type BuildManifest, routeChunks } from '../../../src/contracts/buildManifest.ts';
import { Unavailable } from '../errors.ts';
import { CACHE_CONTROL } from '../lib/cacheControl.ts';
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
function registerUploads(app: FastifyInstance, store: MediaStore) {
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
 * can take it. The folder is read as it is at each request: a build made while the server runs
 * is served at once, with no restart (docs/deploy.md "Upgrades"). Answers whether a build was
 * found.
 */
async function registerApp(app: FastifyInstance, staticDir: string): Promise<boolean> {
  let first: Build;
  try {
    first = await readBuild(staticDir, await buildStamp(staticDir));
  } catch {
    return false;
  }
  builds.set(app, { dir: staticDir, current: first });
  await app.register(fastifyStatic, {
    root: staticDir,
    index: false,
    // Source maps and what the build keeps for itself (.vite/) stay on the server's disk.
    allowedPath: (pathName) => !pathName.endsWith('.map') && !pathName.startsWith('/.vite/'),
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

function wantsAppShell(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    !NOT_APP_ROUTES.test(request.url) &&
    !looksLikeFile(request.url.split('?')[0] ?? '') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * The chunk files `sources` load beyond the entry, from the manifest the build wrote
 * (.vite/manifest.json). None when there is no manifest.
 */
async function routeModules(staticDir: string, sources: readonly string[]): Promise<string[]> {
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(
      await fs.promises.readFile(path.join(staticDir, BUILD_FILES.manifest), 'utf8'),
    ) as BuildManifest;
  } catch {
    return [];
  }
  return routeChunks(manifest, sources).files.map((file) => `/${file}`);
}

/** What fills each of the profile first screen's slots (PROFILE_SLOTS). */
type ProfileSlots = Record<keyof typeof PROFILE_SLOTS, string>;

/** What a signed-in profile's document adds for its first screen (docs/architecture.md "Code splitting and first paint"). */
export interface ProfileDocument {
  /** The `GET /api/auth/me` answer. */
  me: unknown;
  /** The address of the avatar the profile's header shows. */
  avatar: string;
  /** On the member's own profile: its first screen's theme and what fills its slots. */
  ownScreen?: { theme: Theme; slots: ProfileSlots };
}

interface IndexDocument {
  etag: string;
  bodies: { identity: Buffer; br: Buffer; gzip: Buffer };
}

function indexDocument(identity: Buffer): IndexDocument {
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    bodies: { identity, br: zlib.brotliCompressSync(identity), gzip: zlib.gzipSync(identity) },
  };
}

/**
 * What the server takes from a build: index.html with its compressed copies, the profile route's
 * chunks and the hashes of the styles inlined into index.html. Read again as soon as a new build
 * has replaced any of the files it comes from.
 */
interface Build {
  /** The files' sizes and modification times when they were read. */
  stamp: string;
  index: IndexDocument;
  /** index.html with a route's first screen in it, by route (FIRST_SCREENS). */
  firstScreens: Map<string, IndexDocument>;
  /** index.html with the member's own profile as its first screen, slots unfilled, by theme. */
  profileScreens: Map<Theme, string>;
  profileModules: string[];
  styleHashes: string[];
}
const BUILD_FILES = {
  index: 'index.html',
  manifest: path.join('.vite', 'manifest.json'),
  csp: 'csp.json',
};
const builds = new WeakMap<FastifyInstance, { dir: string; current: Build }>();

async function buildStamp(staticDir: string): Promise<string> {
  const stats = await Promise.all(
    [
      ...Object.values(BUILD_FILES),
      ...Object.values(FIRST_SCREENS),
      ...THEMES.map(profileFirstScreen),
    ].map((file) =>
      fs.promises.stat(path.join(staticDir, file)).then(
        ({ mtimeMs, size }) => `${mtimeMs}:${size}`,
        () => '-',
      ),
    ),
  );
  return stats.join(' ');
}

/** Throws when there is no index.html. */
async function readBuild(staticDir: string, stamp: string): Promise<Build> {
  const identity = await fs.promises.readFile(path.join(staticDir, BUILD_FILES.index));
  const firstScreens = new Map<string, IndexDocument>();
  for (const [route, file] of Object.entries(FIRST_SCREENS)) {
    const page = await fs.promises.readFile(path.join(staticDir, file)).catch(() => null);
    if (page) firstScreens.set(route, indexDocument(page));
  }
  const profileScreens = new Map<Theme, string>();
  for (const theme of THEMES) {
    const page = await fs.promises
      .readFile(path.join(staticDir, profileFirstScreen(theme)), 'utf8')
      .catch(() => null);
    if (page) profileScreens.set(theme, page);
  }
  return {
    stamp,
    index: indexDocument(identity),
    firstScreens,
    profileScreens,
    profileModules: await routeModules(staticDir, PROFILE_ROUTE_SOURCES),
    styleHashes: await inlineStyleHashes(staticDir),
  };
}

/**
 * The app's build as its folder holds it now; while a new build is being written and index.html
 * cannot be read, the last one read.
 */
async function currentBuild(app: FastifyInstance): Promise<Build | undefined> {
  const known = builds.get(app);
  if (!known) return undefined;
  const stamp = await buildStamp(known.dir);
  if (stamp !== known.current.stamp) {
    try {
      known.current = await readBuild(known.dir, stamp);
    } catch {
      // index.html is gone for a moment: keep the build read last.
    }
  }
  return known.current;
}

/**
 * The hashes of the <style> the build inlined into index.html, from the csp.json it wrote beside
 * it (vite.config.ts); none without a build (docs/decisions.md "Critical CSS inlined").
 */
async function inlineStyleHashes(staticDir: string): Promise<string[]> {
  let styleHashes: unknown;
  try {
    ({ styleHashes } = JSON.parse(
      await fs.promises.readFile(path.join(staticDir, BUILD_FILES.csp), 'utf8'),
    ) as { styleHashes?: unknown });
  } catch {
    return [];
  }
  if (!Array.isArray(styleHashes)) return [];
  return styleHashes.filter(
    (hash): hash is string => typeof hash === 'string' && /^sha256-[A-Za-z0-9+/]+=*$/.test(hash),
  );
}

/** The style hashes of the build whose index.html this app sent last (for its CSP). */
export function appStyleHashes(app: FastifyInstance): readonly string[] {
  return builds.get(app)?.current.styleHashes ?? NO_HASHES;
}
const NO_HASHES: readonly string[] = [];

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
async function sendIndex(reply: FastifyReply, profile?: ProfileDocument | null) {
  reply.header('Cache-Control', CACHE_CONTROL.revalidate);
  const build = await currentBuild(reply.server);
  if (!build) return reply.sendFile('index.html');
  const document = build.index;
  const vary = reply.getHeader('Vary');
  reply.header('Vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (profile) return sendProfile(reply, build, profile);
  const firstScreen = firstScreenFor(reply.request, build);
  if (firstScreen) return sendFirstScreen(reply, firstScreen);
  reply.header('ETag', document.etag);
  if (etagMatches(reply.request.headers['if-none-match'], document.etag))
    return reply.status(304).send();
  const encoding = contentEncoding(reply.request.headers['accept-encoding']);
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(document.bodies[encoding ?? 'identity']);
}

/**
 * index.html with one member's profile head added: the member as JSON (a data block runs nothing:
 * the CSP needs no 'unsafe-inline'), the avatar's preload and the route's modules; on their own
 * profile, its first screen with their fields in it, whose modules wait for its first paint. Kept by the browser alone (`private`), asked
 * for again on every use, and never answered with the shared copy's ETag. Compressed here,
 * quickly: it is made for this one answer.
 */
function sendProfile(reply: FastifyReply, build: Build, profile: ProfileDocument) {
  const screen = profile.ownScreen;
  const template = screen && build.profileScreens.get(screen.theme);
  const page =
    screen && template
      ? fillSlots(template, screen.slots)
      : build.index.bodies.identity.toString('utf8');
  // A first screen's starter fetches the route's modules with the entry once the screen has
  // painted (src/app/firstScreenStarter.ts); the plain shell asks for them at once.
  const moduleLink = template ? '<link data-after-paint crossorigin' : '<link rel="modulepreload"';
  const head =
    `<script type="application/json" id="${BOOT_ELEMENT_ID}">${scriptJson(profile.me)}</script>` +
    `<link rel="preload" as="image" href="${escapeAttribute(profile.avatar)}" fetchpriority="high">` +
    build.profileModules.map((file) => `${moduleLink} href="${escapeAttribute(file)}">`).join('');
  // A function, so that no `$` in what a member wrote is read as a replacement pattern.
  const html = page.replace('</head>', () => `${head}</head>`);
  reply.header('Cache-Control', CACHE_CONTROL.member);
  reply.header('Vary', `${String(reply.getHeader('Vary'))}, Cookie`);
  const encoding = contentEncoding(reply.request.headers['accept-encoding']);
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(compressed(html, encoding));
}

/**
 * The route's first screen for a visitor without a session; none with one (the app decides what a
 * member sees), nor for a route the build did not render.
 */
function firstScreenFor(request: FastifyRequest, build: Build): IndexDocument | undefined {
  const screen = build.firstScreens.get(request.url.split('?')[0] ?? '');
  if (!screen || request.cookies[request.server.config.session.cookie]) return undefined;
  return screen;
}

/**
 * index.html with the route's first screen in it, drawn in the theme this browser shows (its
 * theme cookie; the app sets it), so nothing changes when the app takes over.
 */
function sendFirstScreen(reply: FastifyReply, screen: IndexDocument) {
  reply.header('Vary', `${String(reply.getHeader('Vary'))}, Cookie`);
  const theme = reply.request.cookies[THEME_COOKIE];
  const encoding = contentEncoding(reply.request.headers['accept-encoding']);
  let etag = screen.etag;
  let body = screen.bodies[encoding ?? 'identity'];
  if (isTheme(theme) && theme !== DEFAULT_THEME) {
    etag = `${screen.etag.slice(0, -1)}-${theme}"`;
    body = compressed(
      screen.bodies.identity
        .toString('utf8')
        .replace(`data-theme="${DEFAULT_THEME}"`, `data-theme="${theme}"`),
      encoding,
    );
  }
  reply.header('ETag', etag);
  if (etagMatches(reply.request.headers['if-none-match'], etag)) return reply.status(304).send();
  if (encoding) reply.header('Content-Encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(body);
}

const SLOT_NAMES = Object.fromEntries(
  Object.entries(PROFILE_SLOTS).map(([name, slot]) => [slot, name]),
) as Record<string, keyof typeof PROFILE_SLOTS>;
const SLOTS = new RegExp(`(/profile/)?(${Object.values(PROFILE_SLOTS).join('|')})`, 'g');

/**
 * The profile's first screen with its slots filled, in one pass (nothing filled in is read again):
 * each value as HTML text, the username in its profile's address encoded as the app encodes it.
 */
function fillSlots(template: string, values: ProfileSlots): string {
  const fullName = `<p class="profile-fullname">${PROFILE_SLOTS.fullName}</p>`;
  return (values.fullName ? template : template.replace(fullName, '')).replace(
    SLOTS,
    (_match, address: string | undefined, slot: string) => {
      const value = values[SLOT_NAMES[slot] ?? 'username'];
      return address ? `${address}${escapeHtml(encodeURIComponent(value))}` : escapeHtml(value);
    },
  );
}

/** A document made for one answer, compressed quickly. */
function compressed(html: string, encoding: 'br' | 'gzip' | null): Buffer {
  const body = Buffer.from(html);
  if (encoding === 'br')
    return zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 },
    });
  if (encoding === 'gzip') return zlib.gzipSync(body, { level: 6 });
  return body;
}

/** JSON that cannot end its <script> element early, nor open a comment in it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Text safe inside a double-quoted HTML attribute. */
function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Text safe as an element's text and inside a quoted HTML attribute. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

export interface StaticOptions {
  /** What a signed-in navigation's document carries besides the shell, or null for the plain one. */
  document?: (request: FastifyRequest) => Promise<ProfileDocument | null>;
}

/**
 * Pictures under /uploads, the built app, and the answer to every other path: the app shell for a
 * browser's navigation, `{error}` 404 for anything else.
 */
export const staticPlugin = fp<StaticOptions>(
  async (app, { document }) => {
    registerUploads(app, app.media.store);
    const hasApp = await registerApp(app, app.config.staticDir);
    app.setNotFoundHandler(async (request, reply) => {
      if (hasApp && wantsAppShell(request))
        return sendIndex(reply, document ? await document(request) : null);
      return reply
        .status(404)
        .send({ error: `Not found: ${request.method} ${request.url.split('?')[0]}` });
    });
  },
  { name: 'orbit-static', dependencies: ['orbit-database', 'orbit-media'] },
);
