import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachApp } from './helpers.ts';

// A build as vite.config.ts writes it: the entry's styles inlined, their hash in csp.json.
const css = `body{margin:0}${'.landing{color:red}'.repeat(200)}`;
const html = `<!doctype html><html><head><title>Orbit</title><style>${css}</style></head><body></body></html>`;
const hash = `sha256-${createHash('sha256').update(css).digest('base64')}`;
const staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-first-paint-'));
await fs.writeFile(path.join(staticDir, 'index.html'), html);
await fs.writeFile(path.join(staticDir, 'csp.json'), JSON.stringify({ styleHashes: [hash] }));

forEachApp(
  (t) => {
    const page = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

    describe('the app document', () => {
      it('allows the inlined styles by their hash, and no other inline style', async () => {
        const response = await page('/landing');
        const styleSrc = String(response.headers['content-security-policy'])
          .split(';')
          .find((directive) => directive.startsWith('style-src'));
        expect(styleSrc).toBe(`style-src 'self' '${hash}'`);
      });

      it.each(['/', '/landing', '/profile/someone'])(
        'sends %s compressed, revalidated, never no-store',
        async (url) => {
          const brotli = await page(url, { 'accept-encoding': 'gzip, br' });
          expect(brotli.statusCode).toBe(200);
          expect(brotli.headers['content-encoding']).toBe('br');
          expect(String(brotli.headers.vary)).toMatch(/Accept-Encoding/);
          expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(html);
          expect(brotli.headers['cache-control']).toBe('no-cache');

          const gzip = await page(url, { 'accept-encoding': 'gzip, br;q=0' });
          expect(gzip.headers['content-encoding']).toBe('gzip');
          expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(html);

          const plain = await page(url, { 'accept-encoding': 'identity' });
          expect(plain.headers['content-encoding']).toBeUndefined();
          expect(plain.body).toBe(html);

          const etag = String(plain.headers.etag);
          expect(etag).toMatch(/^"[\w-]+"$/);
          const again = await page(url, { 'if-none-match': etag });
          expect(again.statusCode).toBe(304);
          expect(again.body).toBe('');
        },
      );
    });
  },
  { STATIC_DIR: staticDir },
);

afterAll(() => fs.rm(staticDir, { recursive: true, force: true }));
