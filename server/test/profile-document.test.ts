/**
 * A signed-in navigation to a profile carries the member and its first screen's hints in the
 * document (docs/architecture.md "Code splitting and first paint"); any other navigation, and a
 * profile the viewer can't see, gets the plain shell with nothing of any member in it.
 */
import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BOOT_ELEMENT_ID,
  DEFAULT_AVATAR,
  DEFAULT_QUOTE,
  PROFILE_SLOTS,
  profileFirstScreen,
} from '../../src/contracts/constants.ts';
import { THEMES } from '../../src/contracts/theme.ts';
import { MeResponse } from '../../src/contracts/user.ts';
import {
  type Member,
  asBearer,
  forEachApp,
  getMe,
  getPage,
  patchProfile,
  signupMembers,
  staticBuild,
} from './helpers.ts';
import { block } from './safety-helpers.ts';

const html = '<!doctype html><html><head><title>Orbit</title></head><body></body></html>';
// The chunks as the build's manifest names them: the entry and what it imports, and the profile
// route's modules, one of which shares a chunk with the entry.
const manifest = {
  'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_shared-s1.js'] },
  '_shared-s1.js': { file: 'assets/shared-s1.js' },
  '_route-r1.js': { file: 'assets/route-r1.js', imports: ['_shared-s1.js'] },
  'src/app/Shell.tsx': {
    file: 'assets/Shell-a1.js',
    isDynamicEntry: true,
    imports: ['_route-r1.js'],
  },
  'src/features/profile/ProfilePage.tsx': {
    file: 'assets/ProfilePage-b2.js',
    isDynamicEntry: true,
    imports: ['_route-r1.js'],
  },
  'src/features/settings/SettingsPage.tsx': { file: 'assets/SettingsPage-c3.js' },
};
// The member's own profile as the build renders it, once per theme, with PROFILE_SLOTS in it.
const slot = PROFILE_SLOTS;
const ownScreen = (theme: string) =>
  `<!doctype html><html data-theme="${theme}"><head><title>Orbit</title></head><body><div id="root">` +
  `<a aria-label="Profile of ${slot.username}" href="/profile/${slot.username}"><img src="${slot.avatar}" alt=""></a>` +
  `<img src="${slot.avatar}" alt="@${slot.username}"><h1>@${slot.username}</h1>` +
  `<p class="profile-fullname">${slot.fullName}</p><blockquote>${slot.quote}</blockquote>` +
  `</div></body></html>`;
const staticDir = await staticBuild({
  'index.html': html,
  '.vite/manifest.json': JSON.stringify(manifest),
  ...Object.fromEntries(THEMES.map((theme) => [profileFirstScreen(theme), ownScreen(theme)])),
});
afterAll(() => fs.rm(staticDir, { recursive: true, force: true }));
/** The profile route's modules beyond the entry's, as the test build's manifest names them. */
const ROUTE_MODULES = ['/assets/ProfilePage-b2.js', '/assets/Shell-a1.js', '/assets/route-r1.js'];

forEachApp(
  (t) => {
    const page = (url: string, member?: Member, headers: Record<string, string> = {}) =>
      getPage(t.app, url, { ...(member ? { cookie: member.cookie } : {}), ...headers });
    const modulesOf = (body: string, link: string) =>
      [...body.matchAll(new RegExp(`<link ${link} href="([^"]+)">`, 'g'))]
        .map((found) => found[1])
        .sort();
    const bootOf = (body: string) => {
      const match = new RegExp(
        `<script type="application/json" id="${BOOT_ELEMENT_ID}">(.*?)</script>`,
      ).exec(body);
      return match ? MeResponse.parse(JSON.parse(match[1] ?? '')) : null;
    };

    describe('a signed-in profile', () => {
      it.each(['/profile', '/profile/', '/profile?tab=photos'])(
        '%s carries the /me answer, the avatar preload and the route’s modules',
        async (url) => {
          const [member] = await signupMembers(t.app, 1);
          const response = await page(url, member);
          expect(response.statusCode).toBe(200);
          const me = (await getMe(t.app, asBearer(member))).json<MeResponse>();
          expect(bootOf(response.body)).toEqual(me);
          expect(response.body).toContain(
            `<link rel="preload" as="image" href="${me.user?.profileImage}" fetchpriority="high">`,
          );
          // Its first screen's starter fetches them once the screen has painted.
          expect(modulesOf(response.body, 'data-after-paint crossorigin')).toEqual(ROUTE_MODULES);
          expect(modulesOf(response.body, 'rel="modulepreload"')).toEqual([]);
        },
      );

      it('is kept by the browser alone, revalidated, with no shared ETag, and still forbids inline script', async () => {
        const [member] = await signupMembers(t.app, 1);
        const response = await page('/profile', member);
        expect(response.headers['cache-control']).toBe('private, no-cache');
        expect(String(response.headers.vary)).toMatch(/Cookie/);
        expect(response.headers.etag).toBeUndefined();
        const scriptSrc = String(response.headers['content-security-policy'])
          .split(';')
          .map((directive) => directive.trim())
          .find((directive) => directive.startsWith('script-src'));
        expect(scriptSrc).toBeDefined();
        expect(scriptSrc).not.toContain('unsafe-inline');
      });

      it('is compressed when the browser accepts it', async () => {
        const [member] = await signupMembers(t.app, 1);
        const brotli = await page('/profile', member, { 'accept-encoding': 'gzip, br' });
        expect(brotli.headers['content-encoding']).toBe('br');
        expect(bootOf(zlib.brotliDecompressSync(brotli.rawPayload).toString())?.user?.id).toBe(
          member.user.id,
        );
        const gzip = await page('/profile', member, { 'accept-encoding': 'gzip' });
        expect(bootOf(zlib.gunzipSync(gzip.rawPayload).toString())?.user?.id).toBe(member.user.id);
      });

      it('cannot have its script ended early by what a member wrote', async () => {
        const [member] = await signupMembers(t.app, 1);
        const quote = '</script><script>alert(1)</script><!--';
        expect(
          (await patchProfile(t.app, asBearer(member), { favoriteQuote: quote })).statusCode,
        ).toBe(200);
        const response = await page('/profile', member);
        expect(response.body).not.toContain('<script>alert(1)');
        expect(response.body).not.toContain('<!--');
        expect(bootOf(response.body)?.user?.favoriteQuote).toBe(quote);
      });

      it('of another member preloads their avatar, found as the profile call finds them', async () => {
        const [viewer, owner] = await signupMembers(t.app, 2);
        const response = await page(`/profile/${owner.username.toUpperCase()}`, viewer);
        expect(bootOf(response.body)?.user?.id).toBe(viewer.user.id);
        expect(response.body).toContain(`href="${owner.user.profileImage}" fetchpriority="high"`);
        expect(owner.user.profileImage).not.toBe(viewer.user.profileImage);
        // No first screen to paint first: the route's modules are fetched at once.
        expect(modulesOf(response.body, 'rel="modulepreload"')).toEqual(ROUTE_MODULES);
      });

      it('of a member without a picture preloads the default one the header shows', async () => {
        const [member] = await signupMembers(t.app, 1);
        await t.app.db
          .updateTable('users')
          .set({ profile_image: '' })
          .where('id', '=', member.user.id)
          .execute();
        const response = await page('/profile', member);
        expect(response.body).toContain(`href="${DEFAULT_AVATAR}" fetchpriority="high"`);
      });
    });

    describe('the own profile’s first screen', () => {
      const rootOf = (body: string) => /<div id="root">(.*)<\/div><\/body>/.exec(body)?.[1];

      it('carries the member’s name, username, avatar and quote as text, in their theme', async () => {
        const [member] = await signupMembers(t.app, 1);
        const first = '<script>alert("name")</script>';
        const last = "O'Brien & $& co";
        const quote = '</blockquote><img src=x onerror="alert(1)"> $1';
        await t.app.db
          .updateTable('users')
          .set({ first_name: first, last_name: last, favorite_quote: quote, theme: 'dark' })
          .where('id', '=', member.user.id)
          .execute();
        const response = await page(`/profile/${member.username}`, member);
        const avatar = member.user.profileImage;
        const escape = (text: string) =>
          text
            .replace(/&/g, '&amp;')
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;')
            .replace(/"/g, '&quot;')
            .replace(/'/g, '&#x27;');
        expect(response.body).toContain('<html data-theme="dark">');
        expect(rootOf(response.body)).toBe(
          `<a aria-label="Profile of ${member.username}" href="/profile/${member.username}"><img src="${avatar}" alt=""></a>` +
            `<img src="${avatar}" alt="@${member.username}"><h1>@${member.username}</h1>` +
            `<p class="profile-fullname">${escape(`${first} ${last}`)}</p>` +
            `<blockquote>${escape(quote)}</blockquote>`,
        );
        expect(response.body).not.toContain('<script>alert');
        expect(response.body).not.toContain('orbit-slot-');
        // The head still carries the member and the hints.
        expect(bootOf(response.body)?.user?.favoriteQuote).toBe(quote);
        expect(response.body).toContain(`href="${avatar}" fetchpriority="high"`);
      });

      it('of a member without a name leaves the name out, and shows the default quote', async () => {
        const [member] = await signupMembers(t.app, 1);
        await t.app.db
          .updateTable('users')
          .set({ first_name: '', last_name: '', favorite_quote: '' })
          .where('id', '=', member.user.id)
          .execute();
        const response = await page('/profile', member);
        expect(response.body).toContain('<html data-theme="normal1">');
        expect(rootOf(response.body)).toContain(`<h1>@${member.username}</h1><blockquote>`);
        expect(rootOf(response.body)).toContain(`<blockquote>${DEFAULT_QUOTE}</blockquote>`);
        expect(response.body).not.toContain('profile-fullname');
      });

      it('is not what another member’s profile carries: the shell with its hints', async () => {
        const [viewer, owner] = await signupMembers(t.app, 2);
        const response = await page(`/profile/${owner.username}`, viewer);
        expect(bootOf(response.body)?.user?.id).toBe(viewer.user.id);
        expect(rootOf(response.body)).toBeUndefined();
        expect(response.body).toContain('<body></body>');
        expect(response.body).not.toContain(owner.username);
      });
    });

    describe('the plain shell', () => {
      it.each([
        ['a visitor without a session', '/profile', false],
        ['a signed-in member on another route', '/landing', true],
        ['a signed-in member on settings', '/settings', true],
        ['an unknown member’s profile', '/profile/nobody_here_at_all', true],
      ])('is what %s gets', async (_name, url, signedIn) => {
        const [member] = await signupMembers(t.app, 1);
        const response = await page(url, signedIn ? member : undefined);
        expect(response.statusCode).toBe(200);
        expect(response.body).toBe(html);
        expect(response.headers['cache-control']).toBe('no-cache');
      });

      it('is what a session that ended gets', async () => {
        const [member] = await signupMembers(t.app, 1);
        await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: asBearer(member) });
        expect((await page('/profile', member)).body).toBe(html);
      });

      it('is what a profile blocked either way gets: nothing of the viewer or the member', async () => {
        const [viewer, blocker] = await signupMembers(t.app, 2);
        await block(t.app, blocker, viewer);
        for (const [from, to] of [
          [viewer, blocker],
          [blocker, viewer],
        ] as const) {
          const response = await page(`/profile/${to.username}`, from);
          expect(response.body).toBe(html);
          expect(response.body).not.toContain(from.user.id);
        }
      });

      it('never publishes the build’s manifest', async () => {
        const response = await t.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
        expect(response.statusCode).toBe(404);
      });
    });
  },
  { STATIC_DIR: staticDir },
);
