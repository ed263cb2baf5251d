import fs from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachApp, staticBuild } from './helpers.ts';

const staticDir = await staticBuild({
  'assets/index-abc123.js.map': '{"version":3}',
  'sw.js.map': '{"version":3}',
});

forEachApp(
  (t) => {
    const get = (url: string, accept = '*/*') =>
      t.app.inject({ method: 'GET', url, headers: { accept } });

    describe('the built app', () => {
      it('serves the service worker as JavaScript that is always revalidated', async () => {
        const response = await get('/sw.js');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
        expect(response.headers['cache-control']).toBe('no-cache');
      });

      it('serves the web app manifest with its own type, always revalidated', async () => {
        const response = await get('/manifest.webmanifest');
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/manifest\+json/);
        expect(response.headers['cache-control']).toBe('no-cache');
        expect(response.json()).toEqual({ name: 'Orbit' });
      });

      it.each(['/assets/index-abc123.js.map', '/sw.js.map'])(
        'does not publish the source map %s',
        async (url) => {
          const response = await get(url);
          expect(response.statusCode).toBe(404);
          expect(response.body).not.toContain('version');
        },
      );

      it('caches hashed assets for a year', async () => {
        const response = await get('/assets/index-abc123.js');
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      });

      it('answers app routes with index.html, revalidated', async () => {
        for (const url of ['/', '/profile/other', '/settings']) {
          const response = await get(url, 'text/html');
          expect(response.statusCode, url).toBe(200);
          expect(response.headers['content-type']).toMatch(/^text\/html/);
          expect(response.headers['cache-control']).toBe('no-cache');
        }
      });

      it('keeps unknown API paths as JSON 404s', async () => {
        const response = await get('/api/nothing-here', 'text/html');
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: 'Not found: GET /api/nothing-here' });
      });
    });
  },
  { STATIC_DIR: staticDir },
);

afterAll(() => fs.rm(staticDir, { recursive: true, force: true }));
