import { createHash } from 'node:crypto';
import react from '@vitejs/plugin-react';
import { type LogLevel, type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

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
            // base rules override theirs. A print sheet never blocks rendering.
            return `<style>${css}</style>\n    <link rel="stylesheet" href="/${fileName}" media="print">`;
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
