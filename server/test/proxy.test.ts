/** Behind a reverse proxy: who the client is, and which origin the page has, come from trusted hops only. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { TRUST_EVERY_HOP_REFUSED } from '../src/lib/proxy.ts';
import { type Member, forEachDialect, signupUser, useTestApp } from './helpers.ts';
import { useListening, useSockets } from './sockets.ts';

const PROXY = '127.0.0.1';
const PAGE = 'https://orbit.example';
const wrongLogin = { identifier: 'someone', password: 'Wrong#Pass1' };

describe('TRUST_PROXY', () => {
  const trustOf = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('is off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('takes a hop count', () => {
    expect(trustOf('1')).toBe(1);
  });

  it('takes a list of addresses and CIDRs', () => {
    expect(trustOf('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });

  it('reads false and 0 as no proxy', () => {
    expect([trustOf('false'), trustOf('0')]).toEqual([false, false]);
  });

  it('refuses true at start with a message naming the safer settings', () => {
    expect(() => trustOf('true')).toThrow(TRUST_EVERY_HOP_REFUSED);
    expect(TRUST_EVERY_HOP_REFUSED).toContain('TRUST_PROXY=1');
  });

  it('refuses something that is not an address', () => {
    expect(() => trustOf('nginx.internal')).toThrow(/TRUST_PROXY must be false, a hop count/);
  });
});

forEachDialect((dialect) => {
  const login = (
    app: ReturnType<typeof useTestApp>['app'],
    remoteAddress: string,
    forwardedFor?: string,
  ) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      payload: wrongLogin,
    });

  describe('rate limits behind one proxy (TRUST_PROXY=1)', () => {
    const t = useTestApp(dialect, { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '2' });

    it('counts the address the proxy saw, whatever the client wrote before it', async () => {
      // nginx's $proxy_add_x_forwarded_for appends the real peer to what the client sent.
      expect((await login(t.app, PROXY, '1.1.1.1, 203.0.113.7')).statusCode).toBe(401);
      expect((await login(t.app, PROXY, '2.2.2.2, 203.0.113.7')).statusCode).toBe(401);

      const third = await login(t.app, PROXY, '3.3.3.3, 203.0.113.7');

      expect(third.statusCode).toBe(429);
    });

    it('gives another client behind the same proxy its own budget', async () => {
      expect((await login(t.app, PROXY, '198.51.100.4')).statusCode).toBe(401);
    });
  });

  describe('rate limits with no proxy trusted (the default)', () => {
    const t = useTestApp(dialect, { AUTH_RATE_LIMIT: '2' });

    it('ignores X-Forwarded-For entirely', async () => {
      await login(t.app, '192.0.2.10', '1.1.1.1');
      await login(t.app, '192.0.2.10', '2.2.2.2');

      expect((await login(t.app, '192.0.2.10', '3.3.3.3')).statusCode).toBe(429);
    });
  });

  describe('rate limits behind listed proxies (TRUST_PROXY=10.0.0.0/8)', () => {
    const t = useTestApp(dialect, { TRUST_PROXY: '10.0.0.0/8', AUTH_RATE_LIMIT: '2' });

    it('believes X-Forwarded-For from a listed proxy', async () => {
      await login(t.app, '10.0.0.5', '203.0.113.20');
      await login(t.app, '10.0.0.6', '203.0.113.20');

      expect((await login(t.app, '10.0.0.5', '203.0.113.20')).statusCode).toBe(429);
    });

    it('does not believe X-Forwarded-For from anyone else', async () => {
      await login(t.app, '192.0.2.33', '203.0.113.21');
      await login(t.app, '192.0.2.33', '203.0.113.22');

      expect((await login(t.app, '192.0.2.33', '203.0.113.23')).statusCode).toBe(429);
    });
  });

  /** A cookie call the proxy forwarded from a page at https://orbit.example. */
  const proxiedThemeChange = (
    app: ReturnType<typeof useTestApp>['app'],
    member: Member,
    remoteAddress = PROXY,
  ) =>
    app.inject({
      method: 'PUT',
      url: '/api/users/theme',
      remoteAddress,
      headers: {
        cookie: member.cookie,
        origin: PAGE,
        host: '127.0.0.1:5000',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'orbit.example',
      },
      payload: { theme: 'dark' },
    });

  /** The app on `env` and a member signed up before its suite: call `member()` inside tests. */
  const useAppWithMember = (env: Record<string, string> = {}) => {
    const t = useTestApp(dialect, env);
    let member: Member;
    beforeAll(async () => {
      member = await signupUser(t.app);
    });
    return { t, member: () => member };
  };

  describe('the page origin behind a trusted proxy', () => {
    const { t, member } = useAppWithMember({ TRUST_PROXY: '1' });

    it('accepts a cookie call from the page the proxy serves, with no APP_ORIGIN entry', async () => {
      expect(t.config.appOrigins).not.toContain(PAGE);

      expect((await proxiedThemeChange(t.app, member())).statusCode).toBe(200);
    });

    it('marks the session cookie Secure when the proxy says the page is https', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-proto': 'https' },
        payload: { identifier: member().username, password: member().password },
      });

      expect(String(response.headers['set-cookie'])).toMatch(/; Secure/);
    });
  });

  describe('the page origin with no proxy trusted', () => {
    const { t, member } = useAppWithMember();

    it('does not take the origin from X-Forwarded-* headers', async () => {
      const response = await proxiedThemeChange(t.app, member());

      expect(response.statusCode).toBe(403);
    });
  });

  describe('the page origin behind listed proxies', () => {
    const { t, member } = useAppWithMember({ TRUST_PROXY: '10.0.0.1' });

    it('takes the origin from the listed proxy', async () => {
      expect((await proxiedThemeChange(t.app, member(), '10.0.0.1')).statusCode).toBe(200);
    });

    it('does not take it from a peer that is not listed', async () => {
      expect((await proxiedThemeChange(t.app, member(), '10.0.0.2')).statusCode).toBe(403);
    });
  });

  describe.each([
    { trusted: true, env: { TRUST_PROXY: '1' } },
    { trusted: false, env: {} },
  ])('the socket handshake (proxy trusted: $trusted)', ({ trusted, env }) => {
    const { t, member } = useAppWithMember(env);
    const served = useListening(t);
    const openSocket = useSockets();

    const connectFromPage = () => {
      const socket = openSocket(served.url, {
        extraHeaders: {
          origin: PAGE,
          cookie: member().cookie,
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'orbit.example',
        },
      });
      return new Promise<boolean>((resolve) => {
        socket.once('connect', () => resolve(true));
        socket.once('connect_error', () => resolve(false));
      });
    };

    it(`${trusted ? 'accepts' : 'refuses'} a page at the forwarded origin`, async () => {
      expect(await connectFromPage()).toBe(trusted);
    });
  });
});
