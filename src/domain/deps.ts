import type { Config } from '../config.js';
import type { Db, DialectName } from '../store/db.js';
import type { RateLimiter } from './rate-limit.js';
import type { Journal } from './journal.js';

/** What every use case may use: the database, the configuration, the shared limiter and the agent call journal. */
export interface Deps {
  db: Db;
  dialect: DialectName;
  config: Config;
  limiter: RateLimiter;
  journal: Journal;
}
