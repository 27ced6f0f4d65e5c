import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Deps } from './domain/deps.js';
import type { RateLimiter } from './domain/rate-limit.js';
import { migrateToLatest, openStore, type Store } from './store/db.js';
import { MemoryRateLimiter } from './store/rate-limiter-memory.js';
import { runRetention } from './retention.js';
import { Journal } from './domain/agents/journal.js';
import type { BlobStore } from './domain/files/blob-store.js';
import { TempFiles } from './domain/files/temp-files.js';
import { sweepBlobs } from './domain/files/blob-sweep.js';
import { DiskBlobStore } from './store/blob-store-disk.js';
import { PhotoCleaner } from './domain/files/photo-metadata.js';
import { SpeechWorker } from './domain/files/speech-worker.js';
import { smtpMailer } from './domain/accounts/mail.js';
import { CREDENTIAL_TTL_MS, CredentialCache } from './domain/agents/credential-cache.js';
import { makeBillingProvider } from './domain/billing/provider.js';
import { Metrics } from './metrics/metrics.js';
import { startMetricsServer, type MetricsServer } from './metrics/server.js';

export interface App {
  server: FastifyInstance;
  deps: Deps;
  store: Store;
  /** The separate `/metrics` listener; null while metrics are off. */
  metricsServer: MetricsServer | null;
  close(): Promise<void>;
}

// The clients of optional services (Redis, S3, SMTP, Stripe, PostgreSQL) are imported only when
// configured: each weighs megabytes of resident memory that a service without it never uses.

export async function makeLimiter(config: Config): Promise<RateLimiter> {
  if (config.redisUrl === null) return new MemoryRateLimiter();
  const { RedisRateLimiter } = await import('./store/rate-limiter-redis.js');
  return new RedisRateLimiter(config.redisUrl);
}

/** BLOB_STORE_URL picks the store; uploads are received under DATA_DIR either way. */
export async function makeBlobStore(config: Config): Promise<BlobStore> {
  if (config.blobStore.kind !== 's3') return new DiskBlobStore(join(config.dataDir, 'blobs'));
  const { S3BlobStore } = await import('./store/blob-store-s3.js');
  return new S3BlobStore(config.blobStore);
}

/**
 * Opens the store (migrating it) and builds the domain dependencies; `close` releases them all.
 * `metrics`, when given, times every query and watches the store, the journal and the queue.
 */
export async function openDeps(
  config: Config,
  metrics: Metrics | null = null,
): Promise<{ deps: Deps; store: Store; close(): Promise<void> }> {
  const store = await openStore(metrics === null ? config : { ...config, onQuery: metrics.observeQuery });
  try {
    await migrateToLatest(store);
  } catch (err) {
    await store.close();
    throw err;
  }
  const blobs = await makeBlobStore(config);
  // Only the embedded store has one service process; PostgreSQL may have many behind a load
  // balancer, and a revocation on one must end the token on all of them with the next request.
  const credentials = new CredentialCache(store.dialect === 'sqlite' ? CREDENTIAL_TTL_MS : 0);
  const deps: Deps = {
    db: store.db,
    config,
    limiter: await makeLimiter(config),
    journal: new Journal(store.db, config.journal),
    blobs,
    tempFiles: new TempFiles(join(config.dataDir, 'blobs', 'tmp')),
    photos: new PhotoCleaner(),
    speech: new SpeechWorker(store.db, config, blobs),
    mailer:
      config.smtpUrl === null
        ? null
        : await smtpMailer(
            config.smtpUrl,
            config.mailFrom ?? `Task Tree <no-reply@${new URL(config.publicUrl).hostname}>`,
          ),
    credentials,
    billing: await makeBillingProvider(config.billing),
    metrics,
  };
  metrics?.watch({ store, db: store.db, journal: deps.journal });
  return {
    deps,
    store,
    async close() {
      await deps.speech.stop();
      await deps.journal.close();
      await deps.photos.close();
      deps.mailer?.close();
      await deps.limiter.close();
      await deps.blobs.close();
      await store.close();
    },
  };
}

const HOUR_MS = 3_600_000;

/** The composition root: store, domain dependencies, HTTP server and periodic upkeep. */
export async function createApp(config: Config): Promise<App> {
  // The HTTP layer is loaded here rather than at the top: the command-line tool opens the same
  // deps (openDeps) and serves nothing, so its commands run without Fastify and the routes.
  const [{ buildServer }, { warnWith }] = await Promise.all([import('./http/server.js'), import('./http/logger.js')]);
  const { deps, store, close } = await openDeps(config, config.metrics === null ? null : new Metrics());
  const server = await buildServer(deps);
  let metricsServer: MetricsServer | null = null;
  try {
    if (config.metrics !== null) metricsServer = await startMetricsServer(deps.metrics!, config.metrics, config.host);
  } catch (err) {
    await server.close();
    await close();
    throw err;
  }
  deps.journal.onError = warnWith(server.log, 'journal flush failed');
  deps.speech.onError = warnWith(server.log, 'speech worker failed');
  deps.limiter.onError = warnWith(server.log, 'redis unreachable');
  const upkeep = setInterval(() => {
    void runRetention(deps).then((outcomes) => {
      for (const outcome of outcomes)
        if ('error' in outcome) server.log.warn({ err: { message: outcome.error } }, `${outcome.job} retention failed`);
    });
  }, HOUR_MS);
  upkeep.unref();
  deps.speech.start();
  sweepBlobs(deps).catch(warnWith(server.log, 'blob sweep failed'));
  return {
    server,
    deps,
    store,
    metricsServer,
    async close() {
      clearInterval(upkeep);
      await metricsServer?.close();
      await server.close();
      await close();
    },
  };
}
