import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type BetterSqlite3 from 'better-sqlite3';
import { makeTestEnv, type TestEnv } from '../helpers/app.js';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { storeStateOf } from '../../src/store/store-state.js';
import { SQLITE_FILE_NAME } from '../../src/store/sqlite-files.js';
import { SERVING_CHECKPOINT_PAGES } from '../../src/store/sqlite-checkpoints.js';

/**
 * SQLite's WAL is checkpointed by a thread of its own (src/store/sqlite-checkpoints.ts), not by
 * the commit that crosses 1,000 pages on the event loop.
 */
describe('SQLite checkpoints off the event loop', () => {
  let env: TestEnv;
  let store: Store;
  let sqlite: BetterSqlite3.Database;
  const file = () => join(env.dataDir, SQLITE_FILE_NAME);
  beforeAll(async () => {
    env = makeTestEnv('sqlite');
    store = await openStore(env.config);
    await migrateToLatest(store);
    const driver = storeStateOf(store.db)!.driver;
    if (!('sqlite' in driver)) throw new Error('not SQLite');
    sqlite = driver.sqlite;
  });
  afterAll(async () => env.dispose());

  it('copies committed pages into the database file while the serving connection does not', async () => {
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(SERVING_CHECKPOINT_PAGES);
    const before = statSync(file()).size;
    // About 600 pages: under SQLite's default 1,000 and the serving connection's own limit.
    sqlite.exec('create table filler (data blob)');
    const insert = sqlite.prepare('insert into filler (data) values (randomblob(1000))');
    for (let t = 0; t < 6; t++) sqlite.transaction(() => Array.from({ length: 400 }, () => insert.run()))();
    for (let i = 0; i < 100 && statSync(file()).size < before + 2_000_000; i++) await delay(50);
    expect(statSync(file()).size).toBeGreaterThan(before + 2_000_000);
    expect(sqlite.prepare('select count(*) from filler').pluck().get()).toBe(2_400);
  });

  it('stops with the store: its connection closed, the last one removes the WAL', async () => {
    expect(existsSync(`${file()}-wal`)).toBe(true);
    await store.close();
    expect(existsSync(`${file()}-wal`)).toBe(false);
  });
});
