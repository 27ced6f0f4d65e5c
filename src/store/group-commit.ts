import type { Db, DialectName, Trx } from './db.js';
import { execute, runDirectlyIn } from './compiled.js';
import { atTurnEnd } from '../turn-end.js';

type Work<T> = (trx: Trx) => Promise<T>;
/** One atomic statement that does the write or declines (undefined) having changed nothing. */
type Attempt<T> = (db: Db | Trx) => Promise<T | undefined>;

interface Pending {
  work: Work<unknown>;
  attempt: Attempt<unknown> | undefined;
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
 * tree queue behind its counter row anyway.
 *
 * Each write runs in a savepoint of its own (an attempt, below, needs none), one after the
 * other, so a write that fails (a plan limit, a foreign id) is undone alone and the others
 * commit; each caller is answered only when the shared transaction has committed (or with its
 * error if the commit fails). Every rule of a write therefore holds exactly as in a transaction
 * of its own: the writes of a batch run in sequence, each seeing the ones before it.
 *
 * On SQLite all batches queue on the one connection and the statements of a batch run directly
 * on it (see `runDirectlyIn`). On PostgreSQL each key (the tree written to) has its own queue,
 * so writes into different trees still run in parallel on the pool while writes into one tree
 * share commits.
 *
 * A write may come with an `attempt`: one statement that either does the whole write or declines
 * having changed nothing (PostgreSQL: a create in one's own tree, see createTask). A write alone
 * in its batch runs that statement outside any transaction, as its own transaction: one round
 * trip instead of a begin, a savepoint, the write's statements and a commit. In a shared batch the
 * attempt runs first, without a savepoint (a decline leaves nothing to undo); should it fail, the
 * batch is rolled back and its writes run again one by one. Only when it declines does `work`
 * run, in its savepoint, and decide (or name the error).
 */
export class GroupCommit {
  private readonly waiting = new Map<string, Pending[]>();
  private readonly running = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
  ) {}

  run<T>(key: string, work: Work<T>, attempt?: Attempt<T>): Promise<T> {
    const queue = this.dialect === 'sqlite' ? '' : key;
    return new Promise<T>((resolve, reject) => {
      let pending = this.waiting.get(queue);
      if (pending === undefined) {
        pending = [];
        this.waiting.set(queue, pending);
        // Every request read in this turn has joined by its end.
        if (!this.running.has(queue)) atTurnEnd(() => this.flush(queue));
      }
      pending.push({
        work: work as Work<unknown>,
        attempt: attempt as Attempt<unknown> | undefined,
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
    const lone = batch.length === 1 ? batch[0]! : undefined;
    if (lone?.attempt !== undefined) {
      if (await this.answeredAlone(lone)) return;
      // It declined: trying it again inside the transaction would decline again.
      lone.attempt = undefined;
    }
    const outcomes: Outcome[] = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        runDirectlyIn(trx, this.db);
        for (const item of batch) {
          const attempted = item.attempt === undefined ? undefined : await attemptInBatch(trx, item.attempt);
          outcomes.push(attempted ?? (await this.inSavepoint(trx, item.work)));
        }
      });
    } catch (error) {
      if (error instanceof AttemptFailed) {
        // Nothing of the batch was kept: each write runs again in a batch of its own, so the
        // failing one fails alone and the others commit, as if they had had savepoints.
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
      if (this.dialect === 'sqlite') await execute(trx, 'release write');
      return { ok: true, value };
    } catch (error) {
      await execute(trx, 'rollback to write');
      if (this.dialect === 'sqlite') await execute(trx, 'release write');
      return { ok: false, error };
    }
  }

  /** A lone write's attempt, as a transaction of its own; false when it declined. */
  private async answeredAlone(item: Pending): Promise<boolean> {
    let value: unknown;
    try {
      value = await item.attempt!(this.db);
    } catch (error) {
      item.reject(error);
      return true;
    }
    if (value === undefined) return false;
    item.resolve(value);
    return true;
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** An attempt that failed inside a shared batch (the batch's transaction is aborted with it). */
class AttemptFailed extends Error {}

/**
 * An attempt in a shared batch, without a savepoint: it is one statement that declines having
 * changed nothing, so only a failure needs undoing, and then the whole batch is rolled back
 * (AttemptFailed). That spares a round trip per write. Undefined when it declined.
 */
async function attemptInBatch(trx: Trx, attempt: Attempt<unknown>): Promise<Outcome | undefined> {
  let value: unknown;
  try {
    value = await attempt(trx);
  } catch (error) {
    throw new AttemptFailed('an attempt failed in a shared batch', { cause: error });
  }
  return value === undefined ? undefined : { ok: true, value };
}

const instances = new WeakMap<Db, GroupCommit>();

/** The group commit of a database (one per store). */
export function groupCommit(db: Db, dialect: DialectName): GroupCommit {
  let instance = instances.get(db);
  if (instance === undefined) {
    instance = new GroupCommit(db, dialect);
    instances.set(db, instance);
  }
  return instance;
}
