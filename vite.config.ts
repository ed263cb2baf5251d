import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { type LogLevel, type Plugin, createServer, defineConfig, minifySync } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import {
  FIRST_SCREENS,
  FIRST_SCREEN_SOURCES,
  PROFILE_ROUTE_SOURCES,
  profileFirstScreen,
} from './src/contracts/constants.ts';
import { type BuildManifest, routeChunks } from './src/contracts/buildManifest.ts';
import { SHARE_FIELD, SHARE_PATH } from './src/contracts/share.ts';
import { DEFAULT_THEME, THEMES } from './src/contracts/theme.ts';
import type * as Prerender from './src/prerender.tsx';
import { startFirstScreen } from './src/app/firstScreenStarter.ts';

const THEME_COLOUR = '#0f1330';
const BACKGROUND_COLOUR = '#0b1026';

/** What the server reads to allow the inlined styles in its CSP (server/src/plugins/security.ts). */
export const CSP_FILE = 'csp.json';

/**
 * The entry's stylesheet (the base styles, the themes and the landing page, a few kB) goes into
 * index.html as a <style>, so no stylesheet blocks the first paint; the route chunks bring their
 * own sheets when they load. The CSP allows that one <style> by its SHA-256, written beside the
 * build in csp.json, never by 'unsafe-inline' (docs/decisions.md "Critical CSS inlined").
 */
function inlineEntryStyles(): Plugin {
  const hashes: string[] = [];
  return {
    name: 'orbit:inline-entry-styles',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
          (link, fileName: string) => {
            const asset = bundle[fileName];
            if (asset?.type !== 'asset') return link;
            const css = String(asset.source).trim();
            hashes.push(`sha256-${createHash('sha256').update(css).digest('base64')}`);
            // The route chunks that list the entry's sheet among their dependencies load it only
            // when no stylesheet link has its address. Without this one, opening such a chunk
            // (the gallery manager) would append the sheet after the route sheets and let the
            // base rules override theirs. A disabled sheet is not even fetched.
            return `<style>${css}</style>\n    <link rel="stylesheet" href="/${fileName}" media="print" disabled>`;
          },
        );
      },
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: CSP_FILE,
        source: `${JSON.stringify({ styleHashes: hashes }, null, 2)}\n`,
      });
    },
  };
}

/** How long a hashed file stays in the build folder after a newer build stopped using it. */
export const KEEP_REPLACED_ASSETS_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A build replaces the files of the one before, but keeps that build's hashed files (assets/) for
 * KEEP_REPLACED_ASSETS_DAYS after it replaced them, so a page opened before an upgrade, or one
 * from a node that already has it while this one does not yet, still finds the chunks it asks for
 * (docs/deploy.md "Upgrades"). When each file was replaced is kept in .vite/replaced.json, which
 * the server does not publish. `current` names this build's own hashed files, for the service
 * worker's precache.
 */
function keepReplacedAssets(current: Set<string>): Plugin {
  let outDir = '';
  return {
    name: 'orbit:keep-replaced-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      current.clear();
      for (const fileName of Object.keys(bundle)) current.add(fileName);
    },
    writeBundle() {
      retireReplacedAssets(outDir, current);
    },
  };
}

/**
 * Records when each hashed file of `outDir` that is not in `current` was first found replaced,
 * and removes those replaced more than KEEP_REPLACED_ASSETS_DAYS ago.
 */
export function retireReplacedAssets(
  outDir: string,
  current: ReadonlySet<string>,
  now = Date.now(),
): void {
  const assets = path.join(outDir, 'assets');
  const record = path.join(outDir, '.vite', 'replaced.json');
  let replaced: Record<string, number> = {};
  try {
    replaced = JSON.parse(fs.readFileSync(record, 'utf8')) as Record<string, number>;
  } catch {
    // The first build into this folder.
  }
  const kept: Record<string, number> = {};
  for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
    const file = `assets/${name}`;
    // A source map belongs to its chunk's build.
    if (current.has(file.replace(/\.map$/, ''))) continue;
    const since = replaced[file] ?? now;
    if (now - since > KEEP_REPLACED_ASSETS_DAYS * DAY_MS) fs.rmSync(path.join(assets, name));
    else kept[file] = since;
  }
  fs.mkdirSync(path.dirname(record), { recursive: true });
  fs.writeFileSync(record, `${JSON.stringify(kept, null, 2)}\n`);
}

/**
 * Renders FIRST_SCREENS' routes (src/prerender.tsx) into copies of the built index.html, kept
 * beside the build's manifest: the server sends one to a visitor without a session, so the page
 * paints before its code runs. Likewise the member's own profile, once per theme, with slots the
 * server fills with the signed-in member's fields. The render runs in a jsdom window, as the app's
 * modules expect one.
 */
function prerenderFirstScreens(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'orbit:first-screens',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      root = config.root;
    },
    async closeBundle() {
      const index = path.join(outDir, 'index.html');
      if (!fs.existsSync(index)) return;
      const shell = fs.readFileSync(index, 'utf8');
      const html = startAfterFirstPaint(shell, outDir);
      const { JSDOM } = await import('jsdom');
      const { window } = new JSDOM(shell, { url: 'https://orbit.invalid/' });
      const globals = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage'];
      const saved = globals.map((key) => Object.getOwnPropertyDescriptor(globalThis, key));
      for (const key of globals)
        Object.defineProperty(globalThis, key, {
          value: key === 'window' ? window : window[key as keyof typeof window],
          configurable: true,
          writable: true,
        });
      const server = await createServer({
        configFile: false,
        root,
        appType: 'custom',
        logLevel: 'error',
        plugins: [react()],
        server: { middlewareMode: true, hmr: false, ws: false },
      });
      try {
        const { firstScreen, ownProfileScreen } = (await server.ssrLoadModule(
          '/src/prerender.tsx',
        )) as typeof Prerender;
        const write = (file: string, page: string, markup: string) => {
          const target = path.join(outDir, file);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(
            target,
            page.replace('<div id="root"></div>', `<div id="root">${markup}</div>`),
          );
        };
        for (const [route, file] of Object.entries(FIRST_SCREENS))
          write(file, withRouteModules(html, outDir, route), await firstScreen(route));
        const profilePage = withRouteStyles(html, outDir, PROFILE_ROUTE_SOURCES);
        for (const theme of THEMES)
          write(
            profileFirstScreen(theme),
            profilePage.replace(`data-theme="${DEFAULT_THEME}"`, `data-theme="${theme}"`),
            await ownProfileScreen(theme),
          );
      } finally {
        await server.close();
        window.close();
        globals.forEach((key, i) => {
          const descriptor = saved[i];
          if (descriptor) Object.defineProperty(globalThis, key, descriptor);
          else delete (globalThis as Record<string, unknown>)[key];
        });
      }
    },
  };
}

/**
 * A first screen is drawn with its route's own sheets (for the profile the shell's, the profile
 * page's and what they import), inlined as the entry's are (inlineEntryStyles), their hash added
 * to csp.json, each with a disabled print link to its file: the route's code sees the sheet is
 * there and loads no second copy, and the browser fetches nothing for it.
 */
function withRouteStyles(html: string, outDir: string, sources: readonly string[]): string {
  const { sheets } = routeChunksOf(outDir, sources);
  if (sheets.length === 0) return html;
  const css = sheets.map((sheet) => fs.readFileSync(path.join(outDir, sheet), 'utf8').trim());
  const style = css.join('\n');
  const cspFile = path.join(outDir, CSP_FILE);
  const csp = JSON.parse(fs.readFileSync(cspFile, 'utf8')) as { styleHashes: string[] };
  csp.styleHashes.push(`sha256-${createHash('sha256').update(style).digest('base64')}`);
  fs.writeFileSync(cspFile, `${JSON.stringify(csp, null, 2)}\n`);
  const links = sheets.map(
    (sheet) => `<link rel="stylesheet" href="/${sheet}" media="print" disabled>`,
  );
  return html.replace('</head>', `<style>${style}</style>\n    ${links.join('')}\n  </head>`);
}

/** The chunks and sheets `sources` load beyond the entry, from the build's manifest. */
function routeChunksOf(outDir: string, sources: readonly string[]) {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
  ) as BuildManifest;
  return routeChunks(manifest, sources);
}

/**
 * A first screen's document names its route's own chunks beside the entry's (FIRST_SCREEN_SOURCES),
 * to be fetched with them once the screen has painted (startAfterFirstPaint), and carries their
 * sheets.
 */
function withRouteModules(html: string, outDir: string, route: string): string {
  const sources: readonly string[] = Object.hasOwn(FIRST_SCREEN_SOURCES, route)
    ? FIRST_SCREEN_SOURCES[route as keyof typeof FIRST_SCREEN_SOURCES]
    : [];
  const links = routeChunksOf(outDir, sources).files.map(
    (file) => `<link data-after-paint crossorigin href="/${file}">`,
  );
  return withRouteStyles(html, outDir, sources).replace(
    '</head>',
    `  ${links.join('')}\n  </head>`,
  );
}

/**
 * The document with a first screen fetches and runs the app's code only once the browser has
 * painted it: the entry and the chunks it imports are named in the document (`<link
 * data-after-paint>`, which fetches nothing) and a small starter turns them into module preloads
 * once the browser reports its first contentful paint, then runs the entry, so the screen already there waits on no
 * download and no compile. The starter is `startFirstScreen`, which also carries an early tap
 * over to the app's screen.
 */
function startAfterFirstPaint(html: string, outDir: string): string {
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(
    html,
  );
  if (!entry?.[1]) return html;
  const starter = minifySync(
    'first-screen.js',
    `(${startFirstScreen.toString()})(() => import(${JSON.stringify(entry[1])}));\n`,
  ).code;
  const name = `assets/first-screen-${createHash('sha256').update(starter).digest('hex').slice(0, 8)}.js`;
  fs.writeFileSync(path.join(outDir, name), starter);
  return html
    .replace(
      entry[0],
      `<link data-after-paint crossorigin href="${entry[1]}">\n    <script type="module" crossorigin src="/${name}"></script>`,
    )
    .replace(/<link rel="modulepreload"/g, '<link data-after-paint');
}

/**
 * The service worker's own build (vite-plugin-pwa runs it apart) logs at the app build's level, so
 * `npm start` shows no asset tables, and asks Rolldown for one chunk by today's option name.
 */
function workerBuildLikeTheApp(logLevel: () => LogLevel): Plugin {
  return {
    name: 'orbit:worker-build',
    config: () => ({ logLevel: logLevel() }),
    outputOptions(options) {
      if (!options.inlineDynamicImports) return null;
      const { inlineDynamicImports: _inline, ...rest } = options;
      return { ...rest, codeSplitting: false };
    },
  };
}

// The API host build setting (docs/configuration.md "Where the app finds the API (build
// setting)"): a production build talks to the origin that served it unless VITE_API_ORIGIN says
// otherwise; the dev server follows the host rule of docs/product.md "Session and API calls".
let resolvedLogLevel: LogLevel = 'info';
const appLogLevel = () => resolvedLogLevel;
/** This build's files, so the worker precaches them and not the earlier builds' kept beside. */
const thisBuild = new Set<string>();

export default defineConfig(({ command }) => ({
  plugins: [
    {
      name: 'orbit:log-level',
      configResolved: (config) => {
        resolvedLogLevel = config.logLevel ?? 'info';
      },
    },
    react(),
    inlineEntryStyles(),
    prerenderFirstScreens(),
    keepReplacedAssets(thisBuild),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The page registers the worker itself through workbox-window (src/features/offline).
      injectRegister: false,
      registerType: 'prompt',
      // The icons are public files, so the glob below already precaches them once.
      includeManifestIcons: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        // Screenshots are for the install sheet only; the avatar placeholder is precached.
        globIgnores: ['screenshots/**'],
        maximumFileSizeToCacheInBytes: 1024 * 1024,
        manifestTransforms: [
          (entries) => ({
            manifest: entries.filter(
              (entry) => !entry.url.startsWith('assets/') || thisBuild.has(entry.url),
            ),
            warnings: [],
          }),
        ],
        buildPlugins: { vite: [workerBuildLikeTheApp(appLogLevel)] },
      },
      devOptions: { enabled: false },
      manifest: {
        id: '/',
        name: 'Orbit',
        short_name: 'Orbit',
        description:
          'Orbit — where connection meets cosmos. Find members, make friends and share your photos.',
        lang: 'en',
        dir: 'ltr',
        // The member's own profile (the app sends /profile on to /profile/{username}); signed
        // out, the guard shows the login page and comes back here.
        start_url: '/profile',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: THEME_COLOUR,
        background_color: BACKGROUND_COLOUR,
        categories: ['social'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
        // Photos shared from another app's share sheet: the worker keeps them and opens the upload
        // manager on them (sw/share.ts); each is checked there against the upload limits (20 MB,
        // a picture) like a picked file. Browsers without share targets ignore this.
        share_target: {
          action: SHARE_PATH,
          method: 'POST',
          enctype: 'multipart/form-data',
          params: { files: [{ name: SHARE_FIELD, accept: ['image/*'] }] },
        },
        shortcuts: [
          {
            name: 'My profile',
            short_name: 'Profile',
            url: '/profile',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
          {
            name: 'Notifications',
            short_name: 'Notifications',
            url: '/spacehub?notifications=open',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
        ],
        screenshots: [
          {
            src: '/screenshots/profile-wide.png',
            sizes: '1280x800',
            type: 'image/png',
            form_factor: 'wide',
            label: 'A member profile with a photo gallery',
          },
          {
            src: '/screenshots/profile-narrow.png',
            sizes: '390x844',
            type: 'image/png',
            form_factor: 'narrow',
            label: 'A member profile on a phone',
          },
        ],
      },
    }),
  ],
  define: {
    'import.meta.env.VITE_API_ORIGIN': JSON.stringify(
      process.env.VITE_API_ORIGIN ?? (command === 'build' ? 'self' : ''),
    ),
  },
  server: { port: 5173, strictPort: true },
  build: {
    target: 'es2022',
    // The folder is not emptied: keepReplacedAssets keeps the previous build's hashed files.
    emptyOutDir: false,
    sourcemap: 'hidden',
    // The server reads it to name the profile route's chunks in a signed-in profile's document
    // (server/src/plugins/static.ts).
    manifest: true,
    rolldownOptions: {
      // The contracts declare schemas, readers and the endpoint table and do nothing on import
      // (but zod.ts, which configures zod): a page bundles only the entries and schemas it uses
      // (docs/architecture.md "Code splitting and first paint").
      treeshake: {
        moduleSideEffects: [
          { test: /[\\/]src[\\/]contracts[\\/](?!zod\.ts$)[^\\/]+\.ts$/, sideEffects: false },
        ],
      },
    },
  },
}));
