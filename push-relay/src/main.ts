import { RelayConfigError, loadRelaySettings } from './config.ts';
import { createLogger, prettyStream } from './log.ts';
import { startRelay } from './relay.ts';
import type { Relay } from './running.ts';

const SHUTDOWN_TIMEOUT_MS = 10_000;

let settings;
try {
  settings = loadRelaySettings();
} catch (error) {
  if (!(error instanceof RelayConfigError)) throw error;
  console.error(`push-relay: ${error.message}`);
  process.exit(1);
}

const log = createLogger(
  settings.logLevel,
  settings.logFormat === 'pretty' ? prettyStream() : undefined,
);
let relay: Relay;
try {
  relay = await startRelay({ ...settings, logger: log });
} catch (error) {
  log.error({ err: error }, 'could not start');
  process.exit(1);
}
log.info(
  {
    server: settings.serverUrl,
    pushesTo: ['the browsers’ push services', ...settings.endpoints.extraHosts],
    health: relay.healthUrl,
  },
  'push is on',
);
log.debug(
  {
    relayId: relay.relayId,
    vapidSubject: settings.vapidSubject,
    leaseSeconds: settings.leaseMs / 1000,
    dataDir: settings.dataDir,
  },
  'relay settings',
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'shutting down');
  setTimeout(() => {
    log.error('shutdown timed out; exiting');
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
  await relay.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
