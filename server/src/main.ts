import { localUrl } from '../../src/contracts/logging.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { startMetricsServer } from './plugins/metrics.ts';

const config = loadConfig();
const app = await buildApp(config);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  const force = setTimeout(() => {
    app.log.error('shutdown timed out; exiting');
    process.exit(1);
  }, config.shutdownTimeoutMs);
  force.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ host: config.host, port: config.port });
  if (config.metrics.port !== undefined) {
    const metricsServer = await startMetricsServer(app.metrics, {
      host: config.metrics.host,
      port: config.metrics.port,
    });
    // Shutdown ends the process once the app has drained; this listener must not hold it open.
    metricsServer.unref();
    app.log.info(
      { url: `http://${config.metrics.host}:${config.metrics.port}/metrics` },
      'metrics listening',
    );
  }
  // The port really listened on (PORT=0 picks a free one), where a person on this machine opens it.
  const address = app.server.address();
  const url = localUrl(
    config.host,
    typeof address === 'object' && address ? address.port : config.port,
  );
  app.log.info(
    {
      url,
      ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      database: app.dialect,
      dataDir: config.dataDir,
    },
    `Orbit is ready at ${url}`,
  );
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  process.exit(1);
}
