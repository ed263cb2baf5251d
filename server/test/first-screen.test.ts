/**
 * A visitor without a session who opens the landing page gets index.html with its first screen in
 * it, drawn in the theme their browser shows (docs/architecture.md "Code splitting and first
 * paint"); a navigation with a session, and any other route, gets the plain shell.
 */
import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRST_SCREENS } from '../../src/contracts/constants.ts';
import { forEachApp, getPage, signupMembers, staticBuild } from './helpers.ts';

const shell =
  '<!doctype html><html lang="en" data-theme="normal1"><head></head><body><div id="root"></div></body></html>';
const landing = shell.replace('<div id="root"></div>', '<div id="root"><h1>Orbit</h1></div>');
const staticDir = await staticBuild({
  'index.html': shell,
  [FIRST_SCREENS['/landing'] ?? '']: landing,
});
afterAll(() => fs.rm(staticDir, { recursive: true, force: true }));

forEachApp(
  (t) => {
    const page = (url: string, headers: Record<string, string> = {}) =>
      getPage(t.app, url, headers);

    describe('the landing page’s first screen', () => {
      it.each(['/landing', '/landing?from=install'])(
        '%s, without a session, carries it, revalidated and varying by cookie',
        async (url) => {
          const response = await page(url);
          expect(response.statusCode).toBe(200);
          expect(response.body).toBe(landing);
          expect(response.headers['cache-control']).toBe('no-cache');
          expect(String(response.headers.vary)).toMatch(/Cookie/);
          const again = await page(url, { 'if-none-match': String(response.headers.etag) });
          expect(again.statusCode).toBe(304);
        },
      );

      it('is drawn in the theme the browser shows, and a made-up theme is ignored', async () => {
        const dark = await page('/landing', { cookie: 'orbit-theme=dark' });
        expect(dark.body).toBe(landing.replace('data-theme="normal1"', 'data-theme="dark"'));
        const plain = await page('/landing');
        expect(dark.headers.etag).not.toBe(plain.headers.etag);
        const brotli = await page('/landing', {
          cookie: 'orbit-theme=light',
          'accept-encoding': 'br',
        });
        expect(brotli.headers['content-encoding']).toBe('br');
        expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toContain(
          'data-theme="light"',
        );
        const madeUp = await page('/landing', { cookie: 'orbit-theme="><script>' });
        expect(madeUp.body).toBe(landing);
      });

      it('is left out for a navigation with a session, and on other routes', async () => {
        const [member] = await signupMembers(t.app, 1);
        expect((await page('/landing', { cookie: member.cookie })).body).toBe(shell);
        expect((await page('/signup')).body).toBe(shell);
        expect((await page('/')).body).toBe(shell);
      });

      it('is never published as a file', async () => {
        const response = await t.app.inject({
          method: 'GET',
          url: `/${FIRST_SCREENS['/landing']}`,
        });
        expect(response.statusCode).toBe(404);
      });
    });
  },
  { STATIC_DIR: staticDir },
);
