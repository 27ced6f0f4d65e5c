import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { Precondition } from '../precondition.js';
import { requireWrite } from '../actor.js';
import { requireTreeWrite, treeAccess, type TreeAccess } from '../access.js';
import { chargeTree } from '../limits.js';
import { BATCH_MAX } from '../fields.js';
import { presentTask, type Task } from '../records.js';
import { DomainError, type ErrorCode } from '../errors.js';
import { write, type Write } from '../write.js';
import { insertTaskRows } from '../../store/tasks.js';
import {
  checkProject,
  checkTaskFields,
  createdEntry,
  newTaskRow,
  patchTask,
  siblingPlaces,
  type TaskInput,
  type TaskPatch,
} from './tasks.js';

/** One update of a batch: the task, its fields, and the version it must still have (if any). */
export interface TaskBatchUpdate {
  id: string;
  patch: TaskPatch;
  precondition?: Precondition;
}

export interface TaskBatchInput {
  create?: TaskInput[];
  update?: TaskBatchUpdate[];
}

export interface TaskBatchResult {
  created: Task[];
  updated: Task[];
}

type Op = 'create' | 'update';

/** What went wrong with one item: where it is, and the error a lone write of it would have met. */
interface ItemFailure {
  index: number;
  op: Op;
  error: DomainError;
}

/**
 * The order a lone write checks in (CONTRACT §16.2): a batch fails with the first of these that
 * any item meets, naming every item that met it.
 */
const CHECK_ORDER: ErrorCode[] = [
  'validation_failed',
  'not_found',
  'forbidden',
  'precondition_failed',
  'conflict',
  'plan_limit_reached',
];

/** A detail of one item's error as the batch's error names it (CONTRACT §17): its index and op first. */
function itemDetails({ index, op, error }: ItemFailure): Record<string, unknown>[] {
  // Not found says only which item; the rest keep what a lone write would say.
  if (error.code === 'not_found' || error.details === undefined || error.details.length === 0) return [{ index, op }];
  return error.details.map((detail) => ({ index, op, ...(detail as Record<string, unknown>) }));
}

/** The batch's one error for its failed items. */
function batchError(failures: ItemFailure[]): DomainError {
  const rank = (code: ErrorCode) => {
    const at = CHECK_ORDER.indexOf(code);
    return at === -1 ? CHECK_ORDER.length : at;
  };
  const code = failures.map((f) => f.error.code).sort((a, b) => rank(a) - rank(b))[0]!;
  const failed = failures.filter((f) => f.error.code === code);
  const first = failed[0]!;
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more item${failed.length > 2 ? 's' : ''})` : '';
  return new DomainError(
    code,
    `Nothing was written: item ${first.index} of ${first.op}: ${first.error.message}${more}`,
    failed.flatMap(itemDetails),
  );
}

/** Runs `check` on each item, collecting each DomainError under the item's index; anything else is thrown. */
async function eachItem<T>(
  items: readonly T[],
  op: Op,
  failures: ItemFailure[],
  check: (item: T, index: number) => unknown,
): Promise<void> {
  for (const [index, item] of items.entries()) {
    try {
      await check(item, index);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      failures.push({ index, op, error: err });
    }
  }
}

/**
 * The creates of one tree, as one create does each (write access, the projects in that tree, the
 * plan's task limit, the places after the last siblings, a `created` entry each), with one charge
 * of the tree's counter and one statement for the tasks and one for their entries.
 */
async function createInTree(
  w: Write,
  treeId: string,
  items: { index: number; input: TaskInput; deadline: string | null }[],
  failures: ItemFailure[],
): Promise<Map<number, Task>> {
  const done = new Map<number, Task>();
  const fail = (error: unknown, which = items) => {
    if (!(error instanceof DomainError)) throw error;
    for (const { index } of which) failures.push({ index, op: 'create', error });
  };
  let access: TreeAccess;
  try {
    access = await treeAccess(w.trx, w.actor, treeId);
    requireTreeWrite(access);
  } catch (err) {
    fail(err);
    return done;
  }
  const projected = items.filter((item) => item.input.project_id != null);
  // As in createTask: the projects must still be in this tree at commit.
  if (projected.length > 0) await w.lockTrees([treeId]);
  const before = failures.length;
  for (const item of projected) {
    try {
      await checkProject(w.trx, w.actor, item.input.project_id!, treeId);
    } catch (err) {
      fail(err, [item]);
    }
  }
  if (failures.length > before) return done;
  try {
    await chargeTree(w.trx, access, { tasks: items.length });
  } catch (err) {
    fail(err, items.slice(0, 1));
    return done;
  }
  const place = siblingPlaces(w.trx, treeId);
  const rows = [];
  for (const { input, deadline } of items) {
    const position = await place(input.project_id ?? null, input.position);
    rows.push(newTaskRow(access, w.actor, input, deadline, position, w.now));
  }
  const entries = rows.map((row) => w.entry(createdEntry(access.ownerId, row)));
  const inserted = await insertTaskRows(w.trx, rows, entries);
  for (const [i, row] of inserted.entries()) done.set(items[i]!.index, presentTask(row));
  return done;
}

/**
 * Creates and updates tasks as one write, so one change (CONTRACT §17): every item or none. Each
 * item meets the rules its lone write meets (createTask, updateTask); when any fails, nothing is
 * written and the error names every item that failed with the first code in the check order, by
 * its index in the array it came in. Results list the items in input order. The creates of a
 * tree cost about what one create costs: one charge of the counter, one insert of the tasks and
 * one of their entries, however many there are.
 * @throws validation_failed, not_found, forbidden, precondition_failed, conflict, plan_limit_reached
 */
export async function runTaskBatch(deps: Deps, actor: Actor, input: TaskBatchInput): Promise<TaskBatchResult> {
  requireWrite(actor);
  const creates = input.create ?? [];
  const updates = input.update ?? [];
  const total = creates.length + updates.length;
  if (total < 1 || total > BATCH_MAX)
    throw new DomainError(
      'validation_failed',
      `A batch holds 1 to ${BATCH_MAX} items in all; this one holds ${total}.`,
      [{ path: '/', message: `must hold 1 to ${BATCH_MAX} items in all` }],
    );

  const failures: ItemFailure[] = [];
  const createDeadlines: (string | null)[] = [];
  const updateDeadlines: (string | null | undefined)[] = [];
  await eachItem(creates, 'create', failures, (item, i) => (createDeadlines[i] = checkTaskFields(item) ?? null));
  const firstOf = new Map<string, number>();
  await eachItem(updates, 'update', failures, (item, i) => {
    updateDeadlines[i] = checkTaskFields(item.patch);
    const earlier = firstOf.get(item.id);
    // One change raises a record's version once: a task is named once in a batch.
    if (earlier !== undefined)
      throw new DomainError('validation_failed', `Item ${i} repeats the task of item ${earlier}.`, [
        { path: '/id', message: `repeats the task of item ${earlier}` },
      ]);
    firstOf.set(item.id, i);
  });
  if (failures.length > 0) throw batchError(failures);

  // Creates into one tree join the tree's group commit as a lone create does (its savepoint keeps
  // the batch all or nothing): batches and creates arriving together share one commit. A batch
  // touching several trees or updating takes a transaction of its own.
  const trees = new Set(creates.map((item) => item.tree_id));
  const batch = updates.length === 0 && trees.size === 1 ? creates[0]!.tree_id : undefined;
  return write(
    deps,
    actor,
    async (w) => {
      const byTree = new Map<string, { index: number; input: TaskInput; deadline: string | null }[]>();
      for (const [index, item] of creates.entries()) {
        const group = byTree.get(item.tree_id) ?? [];
        group.push({ index, input: item, deadline: createDeadlines[index]! });
        byTree.set(item.tree_id, group);
      }
      const created = new Map<number, Task>();
      for (const [treeId, items] of byTree)
        for (const [index, task] of await createInTree(w, treeId, items, failures)) created.set(index, task);
      const updated: Task[] = [];
      await eachItem(updates, 'update', failures, async (item, i) => {
        updated.push(presentTask(await patchTask(w, item.id, item.patch, updateDeadlines[i], item.precondition)));
      });
      // Thrown inside the write: everything the other items wrote is rolled back.
      if (failures.length > 0) throw batchError(failures);
      return { created: creates.map((_, index) => created.get(index)!), updated };
    },
    { batch },
  );
}
