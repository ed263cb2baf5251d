/** Headers every answer carries, and HSTS only over https (docs/architecture.md "Server plugins and HTTP contracts"). */
import { describe, expect, it } from 'vitest';
import { forEachDialect, useTestApp } from './helpers.ts';

const PROXY = '10.0.0.2';
const HSTS = 'max-age=31536000; includeSubDomains';
const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()';

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
});
