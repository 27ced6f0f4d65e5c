import type { Db, Trx } from './types.js';
import { execute, holdingConnection, isPostgres } from './compiled.js';
import { storeStateOf, type SharedCommits } from './store-state.js';
import { atTurnEnd } from '../turn-end.js';

type Work<T> = (trx: Trx) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  /** The write as one statement (see `alone` in domain/write.ts); undefined when it declined. */
  alone: ((db: Db | Trx) => Promise<unknown>) | undefined;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/**
 * PostgreSQL keeps a backend's first 64 subtransactions (our savepoints) in shared memory and
 * slows every snapshot down past that; SQLite has no such limit, but a batch that size already
 * spreads a commit over enough writes.
 */
const MAX_BATCH = 32;

/**
 * Group commit: short writes that arrive together share one transaction, and so one commit. A
 * commit is most of a small write's cost: on SQLite writing the touched pages to the WAL and
 * flushing the FTS5 index, on PostgreSQL a WAL flush to disk, while concurrent writes into one
 * tree queue behind its counter row anyway. The write runner (domain/write.ts) uses it for any
 * write that asks; nothing here knows what a write does.
 *
 * Each write runs in a savepoint of its own, one after the other, so a write that fails (a plan
 * limit, a foreign id) is undone alone and the others commit; each caller is answered only when
 * the shared transaction has committed (or with its error if the commit fails). Every rule of a
 * write therefore holds exactly as in a transaction of its own: the writes of a batch run in
 * sequence, each seeing the ones before it. A write alone in its batch needs no savepoint. On
 * PostgreSQL a write that offers a one-statement form (`alone`, see domain/write.ts) tries it
 * first: outside any transaction when it is alone, else in the shared one without a savepoint
 * (one round trip instead of three or more), falling back to its savepoint when it declines.
 *
 * On SQLite all batches queue on the one connection and the statements of a batch run directly
 * on it (see `holdingConnection`). On PostgreSQL each key (the tree written to) has its own queue,
 * so writes into different trees still run in parallel on the pool while writes into one tree
 * share commits.
 */
export class GroupCommit implements SharedCommits {
  private readonly waiting = new Map<string, Pending[]>();
  private readonly running = new Set<string>();
  private readonly postgres: boolean;

  constructor(private readonly db: Db) {
    this.postgres = isPostgres(db);
  }

  run<T>(key: string, work: Work<T>, alone?: (db: Db | Trx) => Promise<T | undefined>): Promise<T> {
    const queue = this.postgres ? key : '';
    return new Promise<T>((resolve, reject) => {
      let pending = this.waiting.get(queue);
      if (pending === undefined) {
        pending = [];
        this.waiting.set(queue, pending);
        // Every request read in this turn has joined by its end.
        if (!this.running.has(queue)) atTurnEnd(() => this.flush(queue));
      }
      // A one-statement form saves round trips, which SQLite's in-process transactions do not cost.
      const oneStatement = this.postgres ? (alone as Pending['alone']) : undefined;
      pending.push({
        work: work as Work<unknown>,
        alone: oneStatement,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
    });
  }

  private flush(queue: string): void {
    const pending = this.waiting.get(queue);
    if (pending === undefined) return;
    const batch = pending.splice(0, MAX_BATCH);
    if (pending.length === 0) this.waiting.delete(queue);
    this.running.add(queue);
    void this.commit(batch).finally(() => {
      this.running.delete(queue);
      // Not atTurnEnd: that would hold this batch's answers until the next batch has committed.
      if (this.waiting.has(queue)) setImmediate(() => this.flush(queue));
    });
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Outcome[] = [];
    try {
      const lone = batch.length === 1 ? await batch[0]!.alone?.(this.db) : undefined;
      if (lone !== undefined) return batch[0]!.resolve(lone);
      await this.db.transaction().execute((trx) =>
        holdingConnection(trx, async () => {
          if (batch.length === 1) {
            // Alone: its failure rolls the transaction back, and nothing else is in it.
            outcomes.push({ ok: true, value: await batch[0]!.work(trx) });
            return;
          }
          for (const item of batch) {
            // Its one statement writes all or nothing, so it needs no savepoint; in sequence
            // here it sees the writes before it, as the statement's rules require.
            const value = await oneStatementIn(trx, item);
            outcomes.push(value !== undefined ? { ok: true, value } : await this.inSavepoint(trx, item.work));
          }
        }),
      );
    } catch (error) {
      if (error instanceof OneStatementFailed) {
        // Its failure aborted the shared transaction, so nothing of the batch was kept: each
        // write runs again in a batch of its own, and only the failing one fails.
        for (const item of batch) await this.commit([item]);
        return;
      }
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  /** A write in a savepoint of its own, so a write that fails is undone alone. */
  private async inSavepoint(trx: Trx, work: Work<unknown>): Promise<Outcome> {
    await execute(trx, 'savepoint write');
    try {
      const value = await work(trx);
      // PostgreSQL: released at commit, which spares a round trip per write.
      if (!this.postgres) await execute(trx, 'release write');
      return { ok: true, value };
    } catch (error) {
      await execute(trx, 'rollback to write');
      if (!this.postgres) await execute(trx, 'release write');
      return { ok: false, error };
    }
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

class OneStatementFailed extends Error {}

async function oneStatementIn(trx: Trx, item: Pending): Promise<unknown> {
  try {
    return await item.alone?.(trx);
  } catch (error) {
    throw new OneStatementFailed('a write of the batch failed as one statement', { cause: error });
  }
}

/** The group commit of a store, kept in its state (one per open store). */
export function groupCommit(db: Db): SharedCommits {
  const state = storeStateOf(db);
  if (state === undefined) return new GroupCommit(db);
  let commits = state.sharedCommits.get(db);
  if (commits === undefined) {
    commits = new GroupCommit(db);
    state.sharedCommits.set(db, commits);
  }
  return commits;
}
