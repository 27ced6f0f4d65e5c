import type { Actor } from './actor.js';
import type { Deps } from './deps.js';
import type { Trx } from '../store/db.js';
import type { NewHistoryRow } from '../store/rows.js';
import type { HistoryEntryInput } from './trees/history.js';
import { inTransaction } from '../store/db.js';
import { groupCommit } from '../store/group-commit.js';
import { insertHistory } from '../store/history.js';
import { lockTrees } from '../store/locks.js';
import { newId, nowIso } from './ids.js';

/**
 * One write as its use case sees it, handed over by `write`. The use case reads and writes
 * through `trx` with named store functions and says what happened through `record`; everything
 * a write owes besides its rows (the transaction, the locks, the history entries, the effects
 * after commit) is done here, once for every write.
 */
export interface Write {
  readonly trx: Trx;
  readonly actor: Actor;
  /** When the write happens: the rows and entries it writes carry this moment. */
  readonly now: string;
  /** Appends a history entry of this write (CONTRACT §10), inside its transaction. */
  record(entry: HistoryEntryInput): Promise<void>;
  /**
   * The stored form of a history entry of this write, for a store function that writes it with
   * the row it tells of in one statement (insertTask). `record` writes the same row.
   */
  entry(entry: HistoryEntryInput): NewHistoryRow;
  /**
   * Serializes this write with every other that changes where rows sit in these trees (parents,
   * moves across trees): see lockTrees. Whether locks were taken (rows read before may be stale).
   */
  lockTrees(treeIds: Iterable<string>): Promise<boolean>;
  /** Runs `effect` once the write has committed (stored blobs removed); never when it rolled back. */
  afterCommit(effect: () => Promise<void>): void;
}

export interface WriteOptions {
  /**
   * Joins this write with the concurrent writes of the same key (the tree written to) in one
   * transaction and one commit (see GroupCommit): for short writes that arrive together, such as
   * creates. Each still runs alone in its savepoint with every rule, and is answered only once
   * the shared commit is done.
   */
  batch?: string;
}

/**
 * The one way a use case writes. It opens the transaction (or joins a group commit), hands the
 * use case a `Write`, and once the transaction has committed runs the effects the use case asked
 * for. A failure anywhere rolls back all the write did, its history entries included.
 *
 * Every history entry of a write is stamped here (its id, the moment, the actor and the door it
 * came through), so what CONTRACT §16 adds to each write (a change id on every entry, the
 * credential and client) has one place to go. A conditional write (If-Match, an expected
 * version) checks its precondition inside this transaction: see precondition.ts.
 */
export async function write<T>(
  deps: Deps,
  actor: Actor,
  work: (w: Write) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  const effects: (() => Promise<void>)[] = [];
  const run = async (trx: Trx): Promise<T> => {
    // A write in a group commit that fails is undone alone: its effects must go with it.
    effects.length = 0;
    return work(writeIn(trx, actor, effects));
  };
  const result =
    options.batch === undefined
      ? await inTransaction(deps.db, run)
      : await groupCommit(deps.db).run(options.batch, run);
  for (const effect of effects) await effect();
  return result;
}

function writeIn(trx: Trx, actor: Actor, effects: (() => Promise<void>)[]): Write {
  const now = nowIso();
  const entry = (input: HistoryEntryInput): NewHistoryRow => ({
    id: newId('his'),
    owner_id: input.ownerId,
    tree_id: input.treeId,
    at: now,
    actor_id: actor.user.id,
    via: actor.via,
    entity: input.entity,
    entity_id: input.entityId,
    action: input.action,
    changes: JSON.stringify(input.changes ?? {}),
  });
  return {
    trx,
    actor,
    now,
    entry,
    record: (input) => insertHistory(trx, entry(input)),
    lockTrees: (treeIds) => lockTrees(trx, treeIds),
    afterCommit: (effect) => void effects.push(effect),
  };
}
