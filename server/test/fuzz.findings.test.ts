/** What the fuzz suite found, kept as plain cases: each failed before its fix (docs/product.md "Errors"). */
import { describe, expect, it } from 'vitest';
import {
  expectError,
  ORIGIN,
  asCookie,
  forEachApp,
  signupMembers,
  getNotifications,
} from './helpers.ts';

forEachApp((t) => {
  describe('refusals made by plugins', () => {
    it.each([
      ['without the method it asks for', { origin: ORIGIN }],
      ['with an empty method', { origin: ORIGIN, 'access-control-request-method': '' }],
    ])('answers a preflight %s with 400 {error}', async (_name, headers) => {
      const response = await t.app.inject({ method: 'OPTIONS', url: '/api/auth/login', headers });

      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ error: 'Invalid Preflight Request' });
    });

    it('still answers a proper preflight with 204', async () => {
      const response = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
      });

      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    });
  });

  describe('an image reference that decodes to text no column holds', () => {
    it.each([
      ['DELETE', '/api/gallery/%2500', 'ref can’t contain control characters.'],
      ['PATCH', '/api/gallery/a%252Fb%2500.webp', 'ref can’t contain control characters.'],
    ] as const)('answers %s %s with 400 {error}', async (method, url, error) => {
      const [a] = await signupMembers(t.app, 1);

      const response = await t.app.inject({
        method,
        url,
        headers: asCookie(a),
        ...(method === 'PATCH' ? { payload: { caption: 'x' } } : {}),
      });

      expectError(response, 400, error);
    });

    it('still looks up a reference that does not decode, as no image', async () => {
      const [a] = await signupMembers(t.app, 1);

      const response = await t.app.inject({
        method: 'DELETE',
        url: '/api/gallery/100%25',
        headers: asCookie(a),
      });

      expect(response.statusCode).toBe(404);
      expect(response.json<{ error: unknown }>().error).toEqual(expect.any(String));
    });
  });

  describe('a notification page cursor below every id', () => {
    it.each(['-2147483649', '-1', '1e3', ' 7'])(
      'answers before=%s with 400 {error}',
      async (before) => {
        const [a] = await signupMembers(t.app, 1);

        const response = await getNotifications(t.app, asCookie(a), { before });

        expectError(response, 400, 'That page cursor is not valid.');
      },
    );
  });
});
