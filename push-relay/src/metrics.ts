import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { DeliveryOutcome } from './deliver.ts';

export interface RelayMetrics {
  /** Counts the outcomes of one settled event's deliveries. */
  delivered(outcomes: readonly DeliveryOutcome[]): void;
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * The relay's Prometheus metrics, served beside its health check: push deliveries by result,
 * whether it holds the push lease and is connected, and the process's own (memory, event loop).
 */
export function relayMetrics(state: () => { connected: boolean; leader: boolean }): RelayMetrics {
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'orbit_relay_' });
  const deliveries = new Counter({
    name: 'orbit_push_deliveries_total',
    help: 'Push deliveries finished, by result: sent, gone (the device unsubscribed), dropped (refused by the push service, an endpoint Orbit does not push to, or skipped while a failing endpoint rests) or failed (gave up after retries).',
    labelNames: ['result'] as const,
    registers: [register],
  });
  for (const result of ['sent', 'gone', 'dropped', 'failed'] as const)
    deliveries.inc({ result }, 0);
  new Gauge({
    name: 'orbit_relay_leader',
    help: '1 while this relay holds the push lease and pushes, 0 while it stands by.',
    registers: [register],
    collect() {
      this.set(state().leader ? 1 : 0);
    },
  });
  new Gauge({
    name: 'orbit_relay_connected',
    help: '1 while this relay is connected to its Orbit server.',
    registers: [register],
    collect() {
      this.set(state().connected ? 1 : 0);
    },
  });
  return {
    delivered(outcomes) {
      for (const outcome of outcomes) deliveries.inc({ result: outcome.result });
    },
    async render() {
      return { contentType: register.contentType, body: await register.metrics() };
    },
  };
}
