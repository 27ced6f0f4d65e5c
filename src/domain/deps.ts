import type { Config } from '../config.js';
import type { Db, DialectName } from '../store/db.js';
import type { RateLimiter } from './rate-limit.js';

/** What every use case may use: the database, the configuration and the shared limiter. */
export interface Deps {
  db: Db;
  dialect: DialectName;
  config: Config;
  limiter: RateLimiter;
}
