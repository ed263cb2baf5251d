import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const THEME_COLOUR = '#0f1330';
const BACKGROUND_COLOUR = '#0b1026';

// The API host build setting (README "Configuration"): a production build talks to the origin that
// served it unless VITE_API_ORIGIN says otherwise; the dev server follows the host rule of
// docs/product.md "Session and API calls".
export default defineConfig(({ command }) => ({
  plugins: [
    react(),
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
  build: { target: 'es2022', sourcemap: 'hidden' },
}));
