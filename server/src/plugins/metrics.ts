import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Registry } from 'prom-client';
import * as PATHS from '../../../src/contracts/endpoints.paths.ts';
import type { Config } from '../config.ts';
import { routeOf } from '../lib/route.ts';
import { bearerToken } from '../lib/sessionCookie.ts';

/** This node's Prometheus metrics. */
export interface Metrics {
  /** The Prometheus text of every metric, or undefined while metrics are off. */
  render(): Promise<{ contentType: string; body: string } | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const UPLOAD_ROUTES = new Set(
  [PATHS.galleryUpload, PATHS.signup].map((entry) => `${entry.method} ${entry.path}`),
);

/**
 * Prometheus metrics with prom-client, loaded only when METRICS_PORT or METRICS_TOKEN asks for
 * them: request rate and latency by route, open sockets, uploads, rate-limit refusals, and the
 * process's own (memory, event-loop lag, GC).
 */
async function registerMetrics(
  app: FastifyInstance,
  config: Config,
  openSockets: () => number,
): Promise<void> {
  if (config.metrics.port === undefined && config.metrics.token === undefined) {
    app.decorate('metrics', { render: () => Promise.resolve(undefined) });
    return;
  }
  const client = await import('prom-client');
  // One registry per app: tests build many apps in one process.
  const register: Registry = new client.Registry();
  client.collectDefaultMetrics({ register, prefix: 'orbit_' });
  const requests = new client.Counter({
    name: 'orbit_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [register],
  });
  const duration = new client.Histogram({
    name: 'orbit_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  const uploads = new client.Counter({
    name: 'orbit_uploads_total',
    help: 'Picture uploads (gallery photos and signup avatars), by route and result: stored, refused (4xx) or failed (5xx).',
    labelNames: ['route', 'result'] as const,
    registers: [register],
  });
  const refused = new client.Counter({
    name: 'orbit_rate_limited_total',
    help: 'Requests refused with 429 by the rate limits, by route pattern.',
    labelNames: ['route'] as const,
    registers: [register],
  });
  new client.Gauge({
    name: 'orbit_sockets_open',
    help: 'Realtime sockets connected to this node.',
    registers: [register],
    collect() {
      this.set(openSockets());
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    requests.inc({ method: request.method, route, status_code: status });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (UPLOAD_ROUTES.has(`${request.method} ${route}`)) {
      const result = status < 400 ? 'stored' : status < 500 ? 'refused' : 'failed';
      uploads.inc({ route, result });
    }
    if (status === 429) refused.inc({ route });
    done();
  });

  const metrics: Metrics = {
    async render() {
      return { contentType: register.contentType, body: await register.metrics() };
    },
  };
  app.decorate('metrics', metrics);

  const token = config.metrics.token;
  if (token !== undefined) {
    const expected = Buffer.from(token);
    app.get('/metrics', async (request, reply) => {
      const given = Buffer.from(bearerToken(request.headers.authorization) ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return reply.status(401).send({ error: 'Metrics need the METRICS_TOKEN bearer token.' });
      const { contentType, body } = (await metrics.render()) ?? { contentType: '', body: '' };
      return reply
        .header('Content-Type', contentType)
        .header('Cache-Control', 'no-store')
        .send(body);
    });
  }
}

/**
 * The separate metrics listener (METRICS_PORT): `/metrics` only, on its own port so it can stay
 * off the public network. Started by main.ts beside the app; answers its address.
 */
export function startMetricsServer(
  metrics: Metrics,
  options: { host: string; port: number },
): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.render().then(
      (rendered) => {
        response
          .writeHead(200, { 'Content-Type': rendered?.contentType ?? 'text/plain' })
          .end(rendered?.body ?? '');
      },
      () => response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics failed\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}

/** The metrics of this node, counting the realtime server's open sockets. */
export const metricsPlugin = fp(
  (app) => registerMetrics(app, app.config, () => app.realtime.io.of('/').sockets.size),
  { name: 'orbit-metrics', dependencies: ['orbit-database', 'orbit-realtime'] },
);
