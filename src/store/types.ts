import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** The store's handles, in a leaf module: the files that open a store and those that run on it both name them. */
export type DialectName = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
