import { sql, type RawBuilder } from 'kysely';
import type { Db, Trx } from './types.js';
import { POSITION_MAX, POSITION_MIN } from '../domain/field-bounds.js';
import type { NewHistoryRow, NewTaskRow, TaskRow } from './rows.js';
import { compiledOnce, isPostgres } from './compiled.js';
import { historyColumns, insertHistory } from './history.js';

/** The columns a create sets, in the order store statements bind them (version takes its default). */
export const taskColumns = [
  'id',
  'owner_id',
  'tree_id',
  'project_id',
  'title',
  'text',
  'notes',
  'status',
  'deadline',
  'color',
  'position',
  'completed_at',
  'created_by',
  'assignee_ids',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof NewTaskRow)[];

// Not max(position): under "project_id is null" PostgreSQL reads every loose task of the tree for
// it, where this ordering is one step down the siblings index (SQLite answers both in one step).
const lastLoosePosition = compiledOnce((db, tree: string) =>
  db
    .selectFrom('tasks')
    .select('position as max')
    .where('tree_id', '=', tree)
    .where('project_id', 'is', null)
    .orderBy('project_id', 'desc')
    .orderBy('position', 'desc')
    .limit(1),
);
const lastPositionInProject = compiledOnce((db, tree: string, project: string) =>
  db
    .selectFrom('tasks')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('tree_id', '=', tree)
    .where('project_id', '=', project),
);

/** The position of the last task of a tree's project (null: of its loose tasks); null when there is none. */
export async function lastSiblingPosition(trx: Trx, treeId: string, projectId: string | null): Promise<number | null> {
  const [row] =
    projectId === null ? await lastLoosePosition(trx, treeId) : await lastPositionInProject(trx, treeId, projectId);
  return row?.max ?? null;
}

const insertTaskRow = compiledOnce((db, ...values: unknown[]) =>
  db
    .insertInto('tasks')
    .values(Object.fromEntries(taskColumns.map((column, i) => [column, values[i]])) as NewTaskRow)
    .returningAll(),
);

// PostgreSQL: the task and its history entry in one statement, one round trip instead of two.
const insertTaskWithEntry = compiledOnce((db, ...values: unknown[]) => {
  const list = (columns: readonly string[]) => sql.join(columns.map((column) => sql.ref(column)));
  const taskValues = sql.join(values.slice(0, taskColumns.length));
  const entryValues = sql.join(values.slice(taskColumns.length));
  return {
    compile: () =>
      sql<TaskRow>`with task as (
        insert into tasks (${list(taskColumns)}) values (${taskValues}) returning *
      ), entry as (
        insert into history (${list(historyColumns)}) values (${entryValues})
      ) select * from task`.compile(db),
  };
});

/** Inserts a created task and its history entry (stamped by the write runner); answers the stored row. */
export async function insertTask(trx: Trx, row: NewTaskRow, entry: NewHistoryRow): Promise<TaskRow> {
  const task = taskColumns.map((column) => row[column]);
  if (isPostgres(trx)) {
    const [inserted] = await insertTaskWithEntry(trx, ...task, ...historyColumns.map((column) => entry[column]));
    return inserted!;
  }
  // SQLite runs both directly on its connection: two statements cost no round trip there.
  const [inserted] = await insertTaskRow(trx, ...task);
  await insertHistory(trx, entry);
  return inserted!;
}

/**
 * `positionAfter` (domain/fields.ts) as SQL, from the same bounds: the position after the last
 * sibling `last` (null: none), kept inside the column. test/domain/task-create-rules.test.ts
 * holds the two equal.
 */
export function positionAfterSql(last: RawBuilder<number | null>): RawBuilder<number> {
  return sql<number>`(case when ${last} is null then ${sql.lit(POSITION_MIN)} else least(${last}::bigint + 1, ${sql.lit(POSITION_MAX)})::integer end)`;
}

// PostgreSQL: a loose task created in its owner's tree, the counter, the task and its history
// entry in one statement (see insertLooseTaskAlone).
const insertLooseAlone = compiledOnce((db, maxTasks: number, position: number | null, ...values: unknown[]) => {
  const list = (columns: readonly string[]) => sql.join(columns.map((column) => sql.ref(column)));
  const task = Object.fromEntries(taskColumns.map((column, i) => [column, values[i]])) as Record<string, unknown>;
  // The last loose sibling read once: max() over its one row (or none) answers null for none.
  const placeAfterLast = sql<number>`(select ${positionAfterSql(sql`max(last.position)`)} from (
    select tasks.position from tasks where tasks.tree_id = ${task.tree_id} and tasks.project_id is null
    order by tasks.project_id desc, tasks.position desc limit 1) as last)`;
  const taskValues = sql.join(
    taskColumns.map((column, i) =>
      column === 'position' ? sql`coalesce(${position}, ${placeAfterLast})` : sql`${values[i]}`,
    ),
  );
  const entryValues = sql.join(values.slice(taskColumns.length));
  return {
    compile: () =>
      sql<TaskRow>`with charged as (
        update trees set task_count = task_count + 1
        where id = ${task.tree_id} and owner_id = ${task.owner_id} and task_count < ${maxTasks}
          and task_count = (select seen.task_count from trees as seen where seen.id = ${task.tree_id})
        returning id
      ), task as (
        insert into tasks (${list(taskColumns)}) select ${taskValues} from charged returning *
      ), entry as (
        insert into history (${list(historyColumns)}) select ${entryValues} from task
      ) select * from task`.compile(db),
  };
});

/**
 * A loose task created in a tree its owner creates it in, as one statement (see `alone` in
 * domain/write.ts): outside any transaction, or in one shared with the writes before it. It writes only when
 * it is certain every rule holds as createTask would find it: the tree is the owner's, the
 * counter stays within `maxTasks`, and no other writer changed the tree's counters since the
 * statement's snapshot (the guard on `task_count`: a writer it waited for makes it match nothing,
 * so the last sibling's position it read is the last). Otherwise it writes nothing and answers
 * undefined, and the create runs its ordinary way, which finds the precise answer. `row.position`
 * is used when `position` is a number; null takes the place after the last loose task.
 * SQLite answers undefined at once: its transaction costs no round trip.
 */
export async function insertLooseTaskAlone(
  db: Db | Trx,
  row: NewTaskRow,
  position: number | null,
  entry: NewHistoryRow,
  maxTasks: number,
): Promise<TaskRow | undefined> {
  if (!isPostgres(db) || row.project_id !== null) return undefined;
  const values = [...taskColumns.map((column) => row[column]), ...historyColumns.map((column) => entry[column])];
  const [inserted] = await insertLooseAlone(db, maxTasks, position, ...values);
  return inserted;
}

const BULK_CHUNK = 500;

/** Inserts many created tasks with multi-row statements (an import writes one history entry for all). */
export async function insertTasks(trx: Trx, rows: NewTaskRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += BULK_CHUNK) {
    await trx
      .insertInto('tasks')
      .values(rows.slice(start, start + BULK_CHUNK))
      .execute();
  }
}

/** The version a created task has: the column's default (migration 0009, CONTRACT §16.2). */
const CREATED_VERSION = 1;

/** The most tasks one statement of insertTaskRows writes: a batch's 50 (BATCH_MAX, domain/fields.ts). */
const ROWS_MAX = 50;

/** `n` rows of `width` values each, as the VALUES list of an insert. */
function valueRows(values: readonly unknown[], n: number, width: number) {
  return sql.join(
    Array.from({ length: n }, (_, row) => sql`(${sql.join(values.slice(row * width, (row + 1) * width))})`),
  );
}

const columnList = (columns: readonly string[]) => sql.join(columns.map((column) => sql.ref(column)));

// SQLite: `n` tasks in one statement, `n` entries in another, each compiled once per n (at most
// ROWS_MAX of each kind); no rows are read back, insertTaskRows answers the rows it wrote.
const sqliteTaskInserts: ((db: Db | Trx, ...values: unknown[]) => Promise<unknown[]>)[] = [];
const sqliteEntryInserts: ((db: Db | Trx, ...values: unknown[]) => Promise<unknown[]>)[] = [];
// PostgreSQL: `n` tasks and their entries in one statement (one round trip), per n.
const postgresInserts: ((db: Db | Trx, ...values: unknown[]) => Promise<TaskRow[]>)[] = [];

function sqliteTaskInsert(n: number) {
  return (sqliteTaskInserts[n] ??= compiledOnce((db, ...values: unknown[]) => ({
    compile: () =>
      sql`insert into tasks (${columnList(taskColumns)}) values ${valueRows(values, n, taskColumns.length)}`.compile(
        db,
      ),
  })));
}

function sqliteEntryInsert(n: number) {
  return (sqliteEntryInserts[n] ??= compiledOnce((db, ...values: unknown[]) => ({
    compile: () =>
      sql`insert into history (${columnList(historyColumns)}) values ${valueRows(values, n, historyColumns.length)}`.compile(
        db,
      ),
  })));
}

function postgresInsert(n: number) {
  return (postgresInserts[n] ??= compiledOnce((db, ...values: unknown[]) => {
    const tasks = values.slice(0, n * taskColumns.length);
    const entries = values.slice(n * taskColumns.length);
    return {
      compile: () =>
        sql<TaskRow>`with task as (
          insert into tasks (${columnList(taskColumns)}) values ${valueRows(tasks, n, taskColumns.length)} returning *
        ), entry as (
          insert into history (${columnList(historyColumns)}) values ${valueRows(entries, n, historyColumns.length)}
        ) select * from task`.compile(db),
    };
  }));
}

/** The values of `rows`, row after row, each in the order of `columns` (a plain loop: flatMap costs more here). */
function valuesOf<Row>(rows: readonly Row[], columns: readonly (keyof Row)[]): unknown[] {
  const values = new Array<unknown>(rows.length * columns.length);
  let at = 0;
  for (const row of rows) for (const column of columns) values[at++] = row[column];
  return values;
}

/** A created task as stored (its sequence aside, which no answer shows): the row written, at its first version. */
export type CreatedTaskRow = Omit<TaskRow, 'seq'>;

/**
 * Inserts created tasks and their history entries (one each, stamped by the write runner) with
 * multi-row statements compiled once per row count: on SQLite one for the tasks and one for the
 * entries, run directly on the connection, the rows answered as written; on PostgreSQL both in
 * one statement, one round trip. Answers the stored rows in the order given. Rows past ROWS_MAX
 * go in further statements.
 */
export async function insertTaskRows(
  trx: Trx,
  rows: readonly NewTaskRow[],
  entries: readonly NewHistoryRow[],
): Promise<CreatedTaskRow[]> {
  const stored: CreatedTaskRow[] = [];
  for (let start = 0; start < rows.length; start += ROWS_MAX) {
    const some = rows.slice(start, start + ROWS_MAX);
    const theirs = entries.slice(start, start + ROWS_MAX);
    const taskValues = valuesOf(some, taskColumns);
    const entryValues = valuesOf(theirs, historyColumns);
    if (isPostgres(trx)) {
      const inserted = await postgresInsert(some.length)(trx, ...taskValues, ...entryValues);
      const byId = new Map(inserted.map((row) => [row.id, row]));
      for (const row of some) stored.push(byId.get(row.id)!);
    } else {
      await sqliteTaskInsert(some.length)(trx, ...taskValues);
      await sqliteEntryInsert(theirs.length)(trx, ...entryValues);
      for (const row of some) stored.push({ ...row, version: CREATED_VERSION });
    }
  }
  return stored;
}
