import { beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../src/db/sqlite.ts';
import { BUSY } from '../src/errors.ts';
import { postSignup } from './factories.ts';
import {
  expectError,
  ORIGIN,
  forEachDialect,
  forEachApp,
  uniqueUsername,
  useAppWithoutDatabase,
  useTestApp,
} from './helpers.ts';

const INTERNAL_ERROR = 'Something went wrong on our side. Please try again.';

forEachApp((t) => {
  beforeAll(() => {
    // Registered before the app is ready: a route that fails the way a broken query would.
    t.app.get('/api/test/explode', () => {
      throw new Error('relation "users" does not exist at /srv/orbit/server/src/secret.ts:42');
    });
  });

  describe('error responses', () => {
    it('answers malformed JSON with 400 {error} and no stack', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        payload: '{"identifier": "ada", ',
      });

      expectError(response, 400, 'The request body is not valid JSON.');
      expect(response.body).not.toMatch(/stack|at .*\.js/i);
    });

    it.each([
      { when: 'has no boundary', type: 'multipart/form-data', payload: 'username=ada' },
      {
        when: 'is cut off mid-part',
        type: 'multipart/form-data; boundary=xyz',
        payload: '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nada',
      },
    ])('answers a multipart body that $when with 400 {error}', async ({ type, payload }) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: { origin: ORIGIN, 'content-type': type },
        payload,
      });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'That form could not be read. Send it again as multipart/form-data.',
      });
    });

    it('answers a malformed percent-encoding in the path with 400 {error}', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/users/profile/%E0%A4%A' });

      expectError(response, 400, 'That address is not valid.');
    });

    it('answers an over-long path parameter with 414 {error}', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/users/profile/${'a'.repeat(300)}`,
      });

      expectError(response, 414, 'That address is too long.');
    });

    it('marks API answers as no-store even when the path is percent-encoded', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/%61pi/users/me' });

      expect(response.statusCode).toBe(401);
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('answers an unknown /api path with 404 JSON', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/no/such/thing?x=1' });

      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ error: 'Not found: GET /api/no/such/thing' });
    });

    it('answers an unknown /api path with 404 JSON even when a browser asks for HTML', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/nothing',
        headers: { accept: 'text/html' },
      });

      expect(response.statusCode).toBe(404);
      expect(response.json()).toHaveProperty('error');
    });

    it('answers a failure inside a handler with 500 {error} and no internals', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/test/explode' });

      expectError(response, 500, INTERNAL_ERROR);
      expect(response.body).not.toMatch(/relation|secret|stack/);
    });
  });
});

forEachDialect((dialect) => {
  describe('with the database gone', () => {
    const t = useAppWithoutDatabase(dialect);

    it('answers an API call with 500 {error} and no internals', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/check-username?username=someone',
      });

      expectError(response, 500, INTERNAL_ERROR);
    });
  });
});

forEachDialect((dialect) => {
  describe('with the database busy', () => {
    const t = useTestApp(dialect);

    /**
     * Keeps the database from taking a write until `release` is called: every pooled PostgreSQL
     * connection held, or SQLite's file locked for writing by another connection.
     */
    function holdDatabase(): () => Promise<void> {
      if (dialect === 'sqlite') {
        // Another connection through the app's own driver: two SQLite libraries in one process
        // do not see each other's locks.
        const other = openSqlite(t.config.sqlitePath);
        other.exec('BEGIN IMMEDIATE');
        return () => {
          other.exec('ROLLBACK');
          other.close();
          return Promise.resolve();
        };
      }
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const held = Array.from({ length: 10 }, () => t.app.db.connection().execute(() => released));
      return async () => {
        release();
        await Promise.all(held);
      };
    }

    it('answers 503 in the member’s words with Retry-After, writes nothing, and serves again', async () => {
      const username = uniqueUsername('busy');
      const release = holdDatabase();
      let response;
      try {
        response = await postSignup(t.app, { username });
      } finally {
        await release();
      }
      expectError(response, 503, BUSY);
      expect(response.headers['retry-after']).toBe('2');

      const check = await t.app.inject({
        method: 'GET',
        url: `/api/check-username?username=${username}`,
      });
      expect(check.json()).toMatchObject({ available: true });
      expect((await postSignup(t.app, { username })).statusCode).toBe(201);
    }, 20_000);
  });
});
