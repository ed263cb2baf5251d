import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Member,
  ORIGIN,
  asBearer,
  forEachDialect,
  postLogin,
  signupUser,
  useTestApp,
  getMe,
  patchProfile,
  putTheme,
} from './helpers.ts';

const EVIL = 'https://evil.example';

forEachDialect((dialect) => {
  describe('rate limits', () => {
    const t = useTestApp(dialect, { AUTH_RATE_LIMIT: '3', AUTH_RATE_WINDOW_SECONDS: '60' });

    it('answers the 4th login from one address within the window with 429, Retry-After and {error}', async () => {
      const attempt = () => postLogin(t.app, { identifier: 'someone', password: 'Wrong#Pass1' });
      for (let index = 0; index < 3; index += 1) expect((await attempt()).statusCode).toBe(401);

      const response = await attempt();

      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(Object.keys(response.json<object>())).toEqual(['error']);
      expect(response.json<{ error: string }>().error).toMatch(
        /^Too many attempts\. Try again in \d+ seconds\.$/,
      );
    });

    it('counts another address separately', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.1.2.3',
        payload: { identifier: 'someone', password: 'Wrong#Pass1' },
      });

      expect(response.statusCode).toBe(401);
    });
  });

  describe('origin guard', () => {
    const t = useTestApp(dialect);
    let member: Member;
    beforeAll(async () => {
      member = await signupUser(t.app);
    });

    const unsafeCalls = [
      { method: 'POST', url: '/api/auth/logout', payload: {} },
      { method: 'PATCH', url: '/api/auth/profile', payload: { firstName: 'Mallory' } },
      { method: 'PUT', url: '/api/users/theme', payload: { theme: 'dark' } },
    ] as const;

    /** Where a refused cookie call comes from: another site, or no page that says. */
    const refusedOrigins = [
      { from: 'from https://evil.example', headers: { origin: EVIL } },
      { from: 'with neither Origin nor Referer', headers: {} },
    ];

    for (const { from, headers } of refusedOrigins)
      it.each(unsafeCalls)(
        `refuses a cookie $method $url ${from} with 403`,
        async ({ method, url, payload }) => {
          const response = await t.app.inject({
            method,
            url,
            payload,
            headers: { cookie: member.cookie, ...headers },
          });

          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({ error: 'Request origin not allowed.' });
        },
      );

    it('refuses a cookie call to a percent-encoded /api path from https://evil.example', async () => {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/%61pi/users/theme',
        payload: { theme: 'dark' },
        headers: { cookie: member.cookie, origin: EVIL },
      });

      expect(response.statusCode).toBe(403);
    });

    it.each([
      {
        title:
          'refuses a cookie call with no Origin whose Authorization header is not a bearer token',
        headers: { authorization: 'Basic b3JiaXQ6b3JiaXQ=' },
        theme: 'dark',
        status: 403,
      },
      {
        title: 'refuses a cookie call whose Referer is on a foreign site',
        headers: { referer: `${EVIL}/page` },
        theme: 'dark',
        status: 403,
      },
      {
        title: 'accepts a cookie call whose Referer is on an allowed origin',
        headers: { referer: `${ORIGIN}/settings` },
        theme: 'light',
        status: 200,
      },
    ])('$title', async ({ headers, theme, status }) => {
      const response = await putTheme(t.app, { cookie: member.cookie, ...headers }, { theme });

      expect(response.statusCode).toBe(status);
    });

    const theme = (headers: Record<string, string>) => putTheme(t.app, headers, { theme: 'dark' });

    it('refuses a cookie call with Origin: null, whatever its Referer says', async () => {
      for (const referer of [`${ORIGIN}/settings`, `${EVIL}/page`, undefined]) {
        const response = await theme({
          cookie: member.cookie,
          origin: 'null',
          ...(referer ? { referer } : {}),
        });

        expect(response.statusCode, String(referer)).toBe(403);
        expect(response.json()).toEqual({ error: 'Request origin not allowed.' });
      }
    });

    it('refuses a bearer call with Origin: null too', async () => {
      const response = await theme({ ...asBearer(member), origin: 'null', referer: ORIGIN });

      expect(response.statusCode).toBe(403);
    });

    it('goes by the Origin alone when there is one', async () => {
      const foreign = await theme({ cookie: member.cookie, origin: EVIL, referer: ORIGIN });
      const own = await theme({ cookie: member.cookie, origin: ORIGIN, referer: `${EVIL}/x` });
      const empty = await theme({ cookie: member.cookie, origin: '', referer: ORIGIN });

      expect([foreign.statusCode, own.statusCode, empty.statusCode]).toEqual([403, 200, 403]);
    });

    it('accepts a bearer call with no Origin', async () => {
      const response = await putTheme(t.app, asBearer(member), { theme: 'dark' });

      expect(response.statusCode).toBe(200);
    });

    it('does not let the foreign cookie call change anything', async () => {
      await patchProfile(
        t.app,
        { cookie: member.cookie, origin: EVIL },
        { favoriteQuote: 'pwned' },
      );

      const me = await getMe(t.app, asBearer(member));
      expect(me.json<{ user: { favoriteQuote: string } }>().user.favoriteQuote).not.toBe('pwned');
    });
  });
});
