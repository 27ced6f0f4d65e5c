import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import type { RateLimiter } from './rate-limit.js';
import type { Journal } from './agents/journal.js';
import type { BlobStore } from './files/blob-store.js';
import type { TempFiles } from './files/temp-files.js';
import type { PhotoCleaner } from './files/photo-metadata.js';
import type { SpeechWorker } from './files/speech-worker.js';
import type { Mailer } from './accounts/mail.js';
import type { CredentialCache } from './agents/credential-cache.js';
import type { BillingProvider } from './billing/provider.js';
import type { Metrics } from '../metrics/metrics.js';

/** What every use case may use: the database, the configuration, the shared limiter, the agent call journal and the file stores. */
export interface Deps {
  db: Db;
  config: Config;
  limiter: RateLimiter;
  journal: Journal;
  /** Attachment content: DATA_DIR or S3, chosen by the composition root. */
  blobs: BlobStore;
  /** Uploads on the local disk until they are cleaned and stored. */
  tempFiles: TempFiles;
  photos: PhotoCleaner;
  /** Works speech jobs; started by the server only. */
  speech: SpeechWorker;
  /** Outgoing mail; null without SMTP_URL. */
  mailer: Mailer | null;
  /** Token lookups of the last second (see CredentialCache). */
  credentials: CredentialCache;
  /** The billing provider; null while billing is unconfigured (CONTRACT §14). */
  billing: BillingProvider | null;
  /** Prometheus metrics; null unless METRICS_PORT is set (and always in the CLI). */
  metrics: Metrics | null;
}
