import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryOutcome } from './deliver.ts';
import type { LeaseState } from './lease.ts';
import { relayMetrics } from './metrics.ts';

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

export interface HealthState {
  connected: boolean;
  state: LeaseState;
  /** Whether this relay holds the lease; the others stand by. */
  leader: boolean;
  /** Whether this relay holds the lease and has caught up: it pushes each event as it comes. */
  pushing: boolean;
  lastEventId: number | null;
}

/**
 * GET /healthz: 200 while connected to the server (holding the lease or standing by), 503 while
 * not; the body says which. GET /metrics: the relay's Prometheus metrics.
 */
function startHealthServer(
  where: { port: number; host: string },
  state: () => HealthState,
  metrics: () => Promise<{ contentType: string; body: string }>,
): Promise<HealthServer> {
  const server = http.createServer((request, response) => {
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (request.url === '/metrics' && reading) {
      metrics().then(
        ({ contentType, body }) =>
          response
            .writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
            .end(body),
        () => response.writeHead(500).end(),
      );
      return;
    }
    if (request.url !== '/healthz' || !reading) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    const current = state();
    response
      .writeHead(current.connected ? 200 : 503, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      })
      .end(JSON.stringify(current));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = where.host === '0.0.0.0' || where.host === '::' ? '127.0.0.1' : where.host;
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/healthz`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** The health endpoint and the metrics beside it, counting each settled event's deliveries. */
export function serveHealth(
  where: { port: number; host: string },
  relay: {
    on(event: 'settled', listener: (settled: { outcomes: DeliveryOutcome[] }) => void): unknown;
  },
  state: () => HealthState,
): Promise<HealthServer> {
  const metrics = relayMetrics(state);
  relay.on('settled', ({ outcomes }) => metrics.delivered(outcomes));
  return startHealthServer(where, state, () => metrics.render());
}
