import { loadConfig } from './config.js';
import { createApp } from './app.js';
import { tuneHeapForRequests } from './heap-tuning.js';

/** Configuration -> app -> listen, and a clean stop on SIGINT/SIGTERM. */
export async function serve(): Promise<void> {
  tuneHeapForRequests();
  const config = loadConfig();
  const app = await createApp(config);
  await app.server.listen({ port: config.port, host: config.host });
  const database = config.databaseUrl !== null ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  app.server.log.info(`Task Tree ${config.publicUrl} (${database}; files: ${app.deps.blobs.description})`);
  if (app.metricsServer !== null) app.server.log.info(`metrics at ${app.metricsServer.url}/metrics`);
  // Lines leave in batches; whoever waits for "listening" should not wait for the next one.
  (app.server.log as { flush?: () => void }).flush?.();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}
