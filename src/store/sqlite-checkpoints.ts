import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { sqliteModulePath } from './sqlite-driver.js';

/**
 * WAL pages after which the serving connection checkpoints by itself, as SQLite does after 1,000
 * by default: only when the checkpointer below has fallen that far behind.
 */
export const SERVING_CHECKPOINT_PAGES = 10_000;

/** How often the checkpointer copies the WAL's committed pages into the database file. */
const CHECKPOINT_EVERY_MS = 100;

/**
 * The checkpointer's thread: its own connection to the database file, which every
 * CHECKPOINT_EVERY_MS runs a passive checkpoint (it waits for no reader or writer; a frame it
 * cannot copy now is copied next time) until told to stop.
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (the serving connection checkpointing, a backup): the next round copies what is left.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Checkpoints a SQLite database in WAL mode off the event loop. A checkpoint copies the WAL's
 * pages into the database file and syncs it: with SQLite's default, the commit that crosses
 * 1,000 pages does it in the request's turn, 5 to 30 ms in which no request is served (every
 * twentieth batch of 50 creates). Here a worker thread does it on a connection of its own, and the
 * serving connection `sqlite` keeps its own checkpoints for a WAL of SERVING_CHECKPOINT_PAGES.
 * Answers the function that stops the thread once its connection has closed.
 */
export function checkpointOffThread(sqlite: BetterSqlite3.Database, file: string): () => Promise<void> {
  sqlite.pragma(`wal_autocheckpoint = ${SERVING_CHECKPOINT_PAGES}`);
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { driver: sqliteModulePath(), file, everyMs: CHECKPOINT_EVERY_MS },
  });
  // A failed checkpointer leaves the checkpoints to the serving connection, as SQLite's default.
  worker.on('error', () => sqlite.open && sqlite.pragma('wal_autocheckpoint = 1000'));
  worker.unref();
  let stopped: Promise<void> | undefined;
  return () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (worker.threadId === -1) return resolve();
      worker.once('exit', () => resolve());
      // Unreferenced, its exit would not keep the process alive for whoever awaits it.
      worker.ref();
      worker.postMessage('stop');
    }));
}
