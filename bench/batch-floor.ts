import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startBaseline, type BenchServer } from './lib.js';
import { loadSqlite } from '../src/store/sqlite-driver.js';
import { SQLITE_FILE_NAME } from '../src/store/sqlite-files.js';
import { taskColumns } from '../src/store/tasks.js';
import { historyColumns } from '../src/store/history.js';
import { applySqliteSettings } from '../src/store/db.js';

function multiRowInsert(table: string, columns: readonly string[], rows: number): string {
  const row = `(${columns.map(() => '?').join(', ')})`;
  return `insert into ${table} (${columns.join(', ')}) values ${Array(rows).fill(row).join(', ')}`;
}

/**
 * The floor of `POST /tasks/batch` on SQLite: bare Fastify that takes the same body (50 creates
 * in one tree), and in one transaction on a better-sqlite3 connection of its own to the service's
 * file writes what the service writes for it: the 50 task rows in one statement (their search
 * index by the schema's trigger), the 50 history entries in another, the tree's counter. No
 * credential, pipeline, validation, limits, places, presentation or journal; it answers the ids.
 * Loaded after the service's case, while the service idles.
 */
export function startBatchFloor(server: BenchServer) {
  const Database = loadSqlite();
  const handle = new Database(join(server.app.deps.config.dataDir, SQLITE_FILE_NAME));
  // The service's settings, and no checkpoint at all while loaded: the best case.
  applySqliteSettings(handle);
  handle.pragma('wal_autocheckpoint = 0');
  const tasks = new Map<number, { run(...values: unknown[]): unknown }>();
  const entries = new Map<number, { run(...values: unknown[]): unknown }>();
  const counter = handle.prepare('update trees set task_count = task_count + ? where id = ? returning owner_id');
  const prefix = randomBytes(4).toString('hex');
  let serial = 0;
  const write = handle.transaction((treeId: string, items: { title: string; text?: string; notes?: string }[]) => {
    const now = new Date().toISOString();
    const { owner_id: owner } = counter.get(items.length, treeId) as { owner_id: string };
    const taskValues: unknown[] = [];
    const entryValues: unknown[] = [];
    const ids: string[] = [];
    for (const item of items) {
      const id = `tsk_floor${prefix}${String(++serial).padStart(13, '0')}`;
      ids.push(id);
      const task: Record<(typeof taskColumns)[number], unknown> = {
        id,
        owner_id: owner,
        tree_id: treeId,
        project_id: null,
        title: item.title,
        text: item.text ?? '',
        notes: item.notes ?? '',
        status: 'todo',
        deadline: null,
        color: '#6b8e23',
        position: serial,
        completed_at: null,
        created_by: owner,
        assignee_ids: '[]',
        created_at: now,
        updated_at: now,
      };
      const entry: Record<(typeof historyColumns)[number], unknown> = {
        id: `his_floor${prefix}${String(serial).padStart(13, '0')}`,
        owner_id: owner,
        tree_id: treeId,
        at: now,
        actor_id: owner,
        via: 'token',
        entity: 'task',
        entity_id: id,
        action: 'created',
        changes: JSON.stringify({ title: { from: null, to: item.title } }),
        change_id: `chg_floor${prefix}`,
        credential_id: 'pat_floor',
        client: 'bench',
        reverts: null,
        restore: null,
      };
      for (const column of taskColumns) taskValues.push(task[column]);
      for (const column of historyColumns) entryValues.push(entry[column]);
    }
    const n = items.length;
    if (!tasks.has(n)) tasks.set(n, handle.prepare(multiRowInsert('tasks', taskColumns, n)));
    if (!entries.has(n)) entries.set(n, handle.prepare(multiRowInsert('history', historyColumns, n)));
    tasks.get(n)!.run(...taskValues);
    entries.get(n)!.run(...entryValues);
    return ids;
  });
  return startBaseline((app) =>
    app.post('/', async (request) => {
      const { create } = request.body as { create: { tree_id: string; title: string }[] };
      return { created: write(create[0]!.tree_id, create) };
    }),
  ).then((floor) => ({
    url: floor.url,
    async close() {
      await floor.close();
      handle.close();
    },
  }));
}
