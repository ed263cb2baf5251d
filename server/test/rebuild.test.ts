/**
 * A build made while the server runs is served at once, without a restart (docs/deploy.md
 * "Upgrades"): its new hashed files, its index.html, the styles its CSP allows and the modules a
 * signed-in profile's document names. The previous build's files that the folder still holds
 * keep answering.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forEachApp, getPage, signupMembers, staticBuild } from './helpers.ts';

/** The files a build writes that the server reads: index.html with its inlined style, csp.json, the manifest. */
function build(name: string) {
  const css = `.landing{color:${name === 'A' ? 'red' : 'blue'}}`;
  return {
    entry: `assets/index-${name}.js`,
    profileChunk: `assets/ProfilePage-${name}.js`,
    styleHash: `sha256-${createHash('sha256').update(css).digest('base64')}`,
    files: {
      'index.html': `<!doctype html><html data-build="${name}"><head><title>Orbit</title><style>${css}</style></head><body></body></html>`,
      'csp.json': JSON.stringify({
        styleHashes: [`sha256-${createHash('sha256').update(css).digest('base64')}`],
      }),
      '.vite/manifest.json': JSON.stringify({
        'index.html': { file: `assets/index-${name}.js`, isEntry: true },
        'src/features/profile/ProfilePage.tsx': {
          file: `assets/ProfilePage-${name}.js`,
          isDynamicEntry: true,
        },
      }),
      [`assets/index-${name}.js`]: `document.documentElement.dataset.build = '${name}';`,
      [`assets/ProfilePage-${name}.js`]: `export const page = '${name}';`,
    },
  };
}
const A = build('A');
const B = build('B');
const staticDir = await staticBuild(A.files);
afterAll(() => fs.rm(staticDir, { recursive: true, force: true }));

/** A build written over the folder as Vite writes it: the hashed files first, index.html last. */
async function write(files: Record<string, string>) {
  const order = Object.keys(files).sort(
    (a, b) => Number(a === 'index.html') - Number(b === 'index.html'),
  );
  for (const file of order) await fs.writeFile(path.join(staticDir, file), files[file] ?? '');
}
/** The folder as build A left it (each database's app starts from there). */
async function onlyA() {
  for (const file of [B.entry, B.profileChunk])
    await fs.rm(path.join(staticDir, file), { force: true });
  await write(A.files);
}

forEachApp(
  (t) => {
    const get = (url: string, headers: Record<string, string> = {}) => getPage(t.app, url, headers);
    const styleSrc = (headers: Record<string, unknown>) =>
      String(headers['content-security-policy'])
        .split(';')
        .find((directive) => directive.startsWith('style-src'));
    const preloads = (body: string) =>
      [...body.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((found) => found[1]);

    describe('a rebuild while the server runs', () => {
      it('is served at once: new files, the new index.html, its styles allowed, its profile modules', async () => {
        await onlyA();
        const [member] = await signupMembers(t.app, 1);
        const before = await get('/landing');
        expect(before.body).toContain('data-build="A"');
        expect(styleSrc(before.headers)).toBe(`style-src 'self' '${A.styleHash}'`);
        expect((await get(`/${B.entry}`, { accept: '*/*' })).statusCode).toBe(404);
        const profileBefore = await get('/profile', { cookie: member?.cookie ?? '' });
        expect(preloads(profileBefore.body)).toEqual([`/${A.profileChunk}`]);

        await write(B.files);

        const chunk = await get(`/${B.entry}`, { accept: '*/*' });
        expect(chunk.statusCode).toBe(200);
        expect(chunk.body).toContain("'B'");
        expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');

        const after = await get('/landing');
        expect(after.body).toContain('data-build="B"');
        expect(after.headers.etag).not.toBe(before.headers.etag);
        expect(styleSrc(after.headers)).toBe(`style-src 'self' '${B.styleHash}'`);
        expect((await get('/', { 'if-none-match': String(before.headers.etag) })).statusCode).toBe(
          200,
        );

        const profileAfter = await get('/profile', { cookie: member?.cookie ?? '' });
        expect(profileAfter.body).toContain('data-build="B"');
        expect(preloads(profileAfter.body)).toEqual([`/${B.profileChunk}`]);

        // A page still running build A finds the chunks it asks for.
        const kept = await get(`/${A.profileChunk}`, { accept: '*/*' });
        expect(kept.statusCode).toBe(200);
        expect(kept.body).toContain("'A'");
      });
    });
  },
  { STATIC_DIR: staticDir },
);
