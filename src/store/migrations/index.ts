import type { Migration } from 'kysely';
import * as accounts from './2026-11-23-0001-accounts.js';

/** Every migration, in order. Names are frozen once released; add new files, never edit old ones. */
export const migrations: Record<string, Migration> = {
  '2026-11-23-0001-accounts': accounts,
};
