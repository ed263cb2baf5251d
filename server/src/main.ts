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
  app.log.info(
    { url: `http://localhost:${config.port}`, database: app.dialect, dataDir: config.dataDir },
    'Orbit is ready',
  );
} catch (error) {
  app.log.error({ err: error }, 'could not start');
  process.exit(1);
}
