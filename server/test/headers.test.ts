/** Headers every answer carries, and HSTS only over https (docs/architecture.md "Server plugins and HTTP contracts"). */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { forEachDialect, sessionCookie, signupFields, useTestApp, postLogout } from './helpers.ts';

const PROXY = '10.0.0.2';
const HSTS = 'max-age=31536000; includeSubDomains';
const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()';

/** The Content-Security-Policy the app sends with its answers (those of /healthz here). */
async function policyOf(app: FastifyInstance): Promise<string> {
  return String(
    (await app.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy'],
  );
}

/** One directive of the page's Content-Security-Policy, as its list of sources. */
function directive(policy: string, name: string): string[] {
  const found = policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found ? found.slice(1) : [];
}

forEachDialect((dialect) => {
  describe('behind the trusted proxy at 10.0.0.2', () => {
    const t = useTestApp(dialect, { TRUST_PROXY: PROXY });
    const health = (proto?: string, remoteAddress = PROXY) =>
      t.app.inject({
        method: 'GET',
        url: '/healthz',
        remoteAddress,
        headers: proto ? { 'x-forwarded-proto': proto } : {},
      });

    it('sends HSTS when the proxy says the member came over https', async () => {
      expect((await health('https')).headers['strict-transport-security']).toBe(HSTS);
    });

    it('sends no HSTS over plain http', async () => {
      expect((await health('http')).headers['strict-transport-security']).toBeUndefined();
    });

    it('ignores a forwarded https from a peer that is not the proxy', async () => {
      const response = await health('https', '203.0.113.9');
      // The peer is the client itself here; it reached us over http.
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('every answer', () => {
    const t = useTestApp(dialect);

    it.each([
      ['GET', '/healthz'],
      ['GET', '/api/auth/me'],
      ['GET', '/api/nowhere'],
      ['POST', '/api/auth/login'],
    ] as const)('carries the Permissions-Policy: %s %s', async (method, url) => {
      const response = await t.app.inject({ method, url });

      expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    });
  });

  describe('the production CSP with no APP_ORIGIN', () => {
    const t = useTestApp(dialect, { NODE_ENV: 'production', APP_ORIGIN: '' });

    it('lets the page connect only to its own origin: no localhost', async () => {
      expect(directive(await policyOf(t.app), 'connect-src')).toEqual(["'self'"]);
    });

    it('still accepts calls from the page it serves at http://localhost:5000, not from another', async () => {
      const signup = async (origin: string) => {
        const { payload, headers } = await signupFields();
        return t.app.inject({
          method: 'POST',
          url: '/api/auth/signup',
          payload,
          headers: { ...headers, host: 'localhost:5000', origin },
        });
      };

      expect((await signup('http://localhost:5173')).statusCode).toBe(403);
      const response = await signup('http://localhost:5000');
      expect(response.statusCode).toBe(201);
      const logout = await postLogout(t.app, {
        host: 'localhost:5000',
        origin: 'http://localhost:5000',
        cookie: sessionCookie(response),
      });
      expect(logout.statusCode).toBe(200);
    });
  });

  describe('the production CSP with APP_ORIGIN and MEDIA_PUBLIC_URL', () => {
    const t = useTestApp(dialect, {
      NODE_ENV: 'production',
      APP_ORIGIN: 'https://app.example',
      MEDIA_PUBLIC_URL: 'https://media.example/orbit',
    });

    it('lists the configured page origin and its socket, and the media origin for pictures only', async () => {
      const policy = await policyOf(t.app);

      expect(directive(policy, 'connect-src')).toEqual([
        "'self'",
        'https://app.example',
        'wss://app.example',
      ]);
      expect(directive(policy, 'img-src')).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://media.example',
      ]);
    });
  });

  describe('the development CSP with no APP_ORIGIN', () => {
    const t = useTestApp(dialect, { NODE_ENV: 'development', APP_ORIGIN: '' });

    it('lets the Vite dev server’s page and the API’s own page connect', async () => {
      const policy = await policyOf(t.app);

      expect(directive(policy, 'connect-src')).toEqual([
        "'self'",
        'http://localhost:5000',
        'http://localhost:5173',
        'ws://localhost:5000',
        'ws://localhost:5173',
      ]);
    });
  });
});
