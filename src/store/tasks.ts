import { sql } from 'kysely';
import type { Trx } from './types.js';
import type { NewHistoryRow, NewTaskRow, TaskRow } from './rows.js';
import { compiledOnce, isPostgres } from './compiled.js';
import { historyColumns, insertHistory } from './history.js';

/** The columns a create sets, in the order store statements bind them (version takes its default). */
const taskColumns = [
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
