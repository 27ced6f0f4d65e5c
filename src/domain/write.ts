import type { Actor } from './actor.js';
import type { Deps } from './deps.js';
import type { Db, Trx } from '../store/db.js';
import type { NewHistoryRow } from '../store/rows.js';
import type { HistoryEntryInput } from './trees/history.js';
import { inTransaction } from '../store/db.js';
import { groupCommit } from '../store/group-commit.js';
import { insertHistory, insertHistoryRows } from '../store/history.js';
import { lockTrees } from '../store/locks.js';
import { newId, nowIso } from './ids.js';

/**
 * One write as its use case sees it, handed over by `write`. The use case reads and writes
 * through `trx` with named store functions and says what happened through `record`; everything
 * a write owes besides its rows (the transaction, the locks, the history entries, the effects
 * after commit) is done here, once for every write.
 */
export interface Write extends PlainWrite {
  readonly actor: Actor;
  /** Appends a history entry of this write (CONTRACT §10), inside its transaction. */
  record(entry: HistoryEntryInput): Promise<void>;
  /** Appends many history entries of this write with multi-row statements (imports, cascades), in order. */
  recordAll(entries: readonly HistoryEntryInput[]): Promise<void>;
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
}

/** What every write has, whoever makes it: its transaction, its moment, its effects after commit. */
export interface PlainWrite {
  readonly trx: Trx;
  /** When the write happens: the rows and entries it writes carry this moment. */
  readonly now: string;
  /** Runs `effect` once the write has committed (stored blobs removed); never when it rolled back. */
  afterCommit(effect: () => Promise<void>): void;
}

/** What a write's one-statement form (`alone`) is handed: no transaction, so no effects after commit. */
export interface LoneWrite {
  readonly db: Db;
  readonly actor: Actor;
  readonly now: string;
  /** The stored form of a history entry of this write, stamped as `Write.entry` stamps it. */
  entry(entry: HistoryEntryInput): NewHistoryRow;
}

export interface WriteOptions<T> {
  /**
   * Joins this write with the concurrent writes of the same key (the tree written to) in one
   * transaction and one commit (see GroupCommit): for short writes that arrive together, such as
   * creates. Each still runs alone in its savepoint with every rule, and is answered only once
   * the shared commit is done.
   */
  batch?: string;
  /**
   * The same write as one statement outside any transaction, tried first when the write runs
   * alone in its batch (on PostgreSQL a transaction costs two round trips more than its
   * statements). It answers undefined, having written nothing, whenever it cannot be sure the
   * write's rules hold; `work` then runs as usual and gives the precise answer. The rules stay in
   * `work` and the store functions it shares with this form.
   */
  alone?: (w: LoneWrite) => Promise<T | undefined>;
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
  options: WriteOptions<T> = {},
): Promise<T> {
  const { alone } = options;
  // Entries stamped by the attempt that counts: a group commit may undo an attempt and run it again.
  let stamped = 0;
  const count = () => void stamped++;
  const tryAlone =
    alone === undefined
      ? undefined
      : async () => {
          const now = nowIso();
          stamped = 0;
          const done = await alone({ db: deps.db, actor, now, entry: entryStamper(actor, now, count) });
          if (done === undefined) stamped = 0;
          return done;
        };
  const result = await run(
    deps,
    options.batch,
    (trx, effects) => {
      stamped = 0;
      return work(writeIn(trx, actor, effects, count));
    },
    tryAlone,
  );
  // Committed: the change this write belongs to has written history (the Change-Id of CONTRACT §16.3).
  if (stamped > 0) actor.change.written = true;
  return result;
}

/**
 * A write outside every tree (accounts, tokens, OAuth grants, billing, sweeps), which has no
 * history (CONTRACT §10 keeps history per tree) and often no signed-in actor (a payment provider's
 * event, the OAuth token endpoint, a reset by its emailed link). The same transaction and
 * effects after commit as `write`.
 */
export async function writeOutsideTrees<T>(deps: Deps, work: (w: PlainWrite) => Promise<T>): Promise<T> {
  return run(deps, undefined, (trx, effects) => work(plainWriteIn(trx, effects)));
}

async function run<T>(
  deps: Deps,
  batch: string | undefined,
  work: (trx: Trx, effects: (() => Promise<void>)[]) => Promise<T>,
  alone?: () => Promise<T | undefined>,
): Promise<T> {
  const effects: (() => Promise<void>)[] = [];
  const attempt = async (trx: Trx): Promise<T> => {
    // A write in a group commit that fails is undone alone: its effects must go with it.
    effects.length = 0;
    return work(trx, effects);
  };
  const result =
    batch === undefined
      ? ((await alone?.()) ?? (await inTransaction(deps.db, attempt)))
      : await groupCommit(deps.db).run(batch, attempt, alone);
  for (const effect of effects) await effect();
  return result;
}

function plainWriteIn(trx: Trx, effects: (() => Promise<void>)[]): PlainWrite {
  return { trx, now: nowIso(), afterCommit: (effect) => void effects.push(effect) };
}

/**
 * Stamps the history entries of one write: the one place that says who wrote them, when, how,
 * and in which change (CONTRACT §16.3: the actor's change, credential and client).
 */
function entryStamper(actor: Actor, now: string, stamped: () => void): (input: HistoryEntryInput) => NewHistoryRow {
  return (input) => {
    stamped();
    return {
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
      change_id: actor.change.id,
      credential_id: actor.credentialId,
      client: actor.client,
      reverts: input.reverts ?? null,
      restore: input.restore === undefined ? null : JSON.stringify(input.restore),
    };
  };
}

function writeIn(trx: Trx, actor: Actor, effects: (() => Promise<void>)[], stamped: () => void): Write {
  const plain = plainWriteIn(trx, effects);
  const entry = entryStamper(actor, plain.now, stamped);
  return {
    ...plain,
    actor,
    entry,
    record: (input) => insertHistory(trx, entry(input)),
    recordAll: (inputs) => insertHistoryRows(trx, inputs.map(entry)),
    lockTrees: (treeIds) => lockTrees(trx, treeIds),
  };
}
