/** Prometheus metrics: off by default, behind METRICS_TOKEN or on METRICS_PORT. */
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../src/plugins/metrics.ts';
import { jpegPart, patchImage, postUpload, uploadImage } from './gallery-helpers.ts';
import { type Member, forEachDialect, postLogin, signupUser, useTestApp } from './helpers.ts';

const TOKEN = 'metrics-token-for-tests-0123';

forEachDialect((dialect) => {
  describe('with metrics off (the default)', () => {
    const t = useTestApp(dialect);

    it('has no /metrics', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    });
  });

  describe('with METRICS_TOKEN', () => {
    const t = useTestApp(dialect, { METRICS_TOKEN: TOKEN, AUTH_RATE_LIMIT: '1' });
    let member: Member;
    beforeAll(async () => {
      member = await signupUser(t.app);
    });
    const scrape = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      return response.body;
    };

    it('refuses a scrape without the token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Metrics need the METRICS_TOKEN bearer token.' });
    });

    it('refuses a scrape with a wrong token', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token-for-tests-9999' },
      });

      expect(response.statusCode).toBe(401);
    });

    it('counts requests by route pattern, not by the URL a member asked for', async () => {
      const image = await uploadImage(t.app, member);
      await patchImage(t.app, member, image.id, { caption: 'Saturn' });

      const text = await scrape();

      expect(text).toMatch(
        /orbit_http_requests_total\{method="PATCH",route="\/api\/gallery\/:ref",status_code="200"\} 1/,
      );
      expect(text).not.toContain(image.id);
      expect(text).toMatch(
        /orbit_http_request_duration_seconds_count\{method="PATCH",route="\/api\/gallery\/:ref"\} 1/,
      );
    });

    it('counts uploads stored and refused', async () => {
      const notAnImage = { data: Buffer.from('hello'), filename: 'a.png', type: 'image/png' };
      await postUpload(t.app, member, notAnImage);
      await postUpload(t.app, member, await jpegPart());

      const text = await scrape();

      expect(text).toMatch(/orbit_uploads_total\{route="\/api\/gallery",result="refused"\} 1/);
      // Two stored: this one and the one of the test before.
      expect(text).toMatch(/orbit_uploads_total\{route="\/api\/gallery",result="stored"\} 2/);
    });

    it('counts requests the rate limits refused', async () => {
      await postLogin(t.app, { identifier: 'nobody', password: 'Wrong#Pass1' });
      const refused = await postLogin(t.app, { identifier: 'nobody', password: 'Wrong#Pass1' });
      expect(refused.statusCode).toBe(429);

      expect(await scrape()).toMatch(/orbit_rate_limited_total\{route="\/api\/auth\/login"\} 1/);
    });

    it('reports the sockets open on this node', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const socket = io(`http://127.0.0.1:${port}`, {
        transports: ['websocket'],
        auth: { token: member.token },
      });
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

      const text = await scrape();
      socket.disconnect();

      expect(text).toMatch(/^orbit_sockets_open 1$/m);
    });

    it('includes the process metrics', async () => {
      expect(await scrape()).toMatch(/^orbit_process_resident_memory_bytes \d+/m);
    });
  });

  describe('with METRICS_PORT', () => {
    const t = useTestApp(dialect, { METRICS_PORT: '9464' });
    let server: http.Server;
    let url = '';
    beforeAll(async () => {
      await t.app.ready();
      server = await startMetricsServer(t.app.metrics, { host: '127.0.0.1', port: 0 });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('serves /metrics on its own port, without a token', async () => {
      await t.app.inject({ method: 'GET', url: '/healthz' });

      const response = await fetch(`${url}/metrics`);

      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(
        /orbit_http_requests_total\{method="GET",route="\/healthz",status_code="200"\} 1/,
      );
    });

    it('serves nothing else there', async () => {
      expect((await fetch(`${url}/api/auth/me`)).status).toBe(404);
    });

    it('keeps /metrics off the app port', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    });
  });
});
