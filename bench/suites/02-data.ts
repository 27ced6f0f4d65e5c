import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import {
  benchDatabases,
  load,
  makeAgent,
  NEW_TASK,
  printHeader,
  report,
  startBaseline,
  startServer,
  TASKS_AT_EXPORT_BUDGET,
  time,
  type BenchServer,
} from '../lib.js';
import { createToken } from '../../src/domain/agents/tokens.js';
import type { Actor } from '../../src/domain/actor.js';
import { createTree } from '../../src/domain/trees/trees.js';
import { openDeps } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedTasks, taskFields } from '../seed.js';
import { insertTasksBulk } from '../../src/domain/trees/tasks.js';
import { loadSqlite } from '../../src/store/sqlite-driver.js';
import { refreshTaskStatistics } from '../../src/store/statistics.js';

/**
 * An account of 100,000 tasks: search, export at the contributor budget and the service's idle
 * memory, with the service in a process of its own and the owner's 20 tokens rotating under the
 * real limit; and the floors that bound any read and any indexed insert. Grove allows 50,000
 * tasks per tree, so the owner's 100,000 tasks live in two full trees. Client-shaped reads and
 * writes are in 01-clients.
 */
export async function run(): Promise<void> {
  for (const kind of benchDatabases()) {
    printHeader(`Data API at 100,000 tasks (${kind})`);
    const server = await startServer(kind);
    try {
      await measure(server);
    } finally {
      await server.close();
    }
  }
}

async function measure(server: BenchServer): Promise<void> {
  const deps = server.app.deps;
  const { actor, token } = await makeAgent(server, 'grove');
  // The owner's every token (20 is the most one person may hold), so searches rotate as a busy client's would.
  const tokens = [token];
  while (tokens.length < 20) tokens.push((await createToken(deps, actor, { name: `bench ${tokens.length}` })).value);
  const seeded = await seedTasks(deps, actor, 2, 50_000);
  console.log(
    `| seeding 100,000 tasks through insertTasksBulk | ${(100_000 / seeded.seconds).toFixed(0)} tasks/s | | | | | ${seeded.seconds.toFixed(1)} s |`,
  );
  await spreadDeadlines(server, actor.user.id);
  const [task] = await deps.db
    .selectFrom('tasks')
    .select('id')
    .where('tree_id', '=', seeded.treeIds[1]!)
    .orderBy('seq', 'desc')
    .limit(1)
    .execute();
  const budgetTree = await createTree(deps, actor, { name: 'at budget' });
  await insertTasksBulk(
    deps,
    actor,
    budgetTree.id,
    Array.from({ length: TASKS_AT_EXPORT_BUDGET }, (_, i) => taskFields(i)),
  );

  // BENCH_CASE=deadline measures only the cases whose name holds that text, `a|b` either (the seeding always runs).
  const only = process.env.BENCH_CASE?.split('|');
  const wanted = (name: string) => only === undefined || only.some((text) => name.includes(text));

  if (wanted('bare Fastify, small JSON') || wanted('floor: bare Fastify + one task read')) {
    const baseline = await startBaseline();
    const floor = await startReadFloor(server, task!.id, actor.user.id);
    report(await load('bare Fastify, small JSON', { url: `${baseline.url}/` }));
    report(
      await load('floor: bare Fastify + one task read at 100,000 tasks as one prepared query, no pipeline', {
        url: `${floor.url}/`,
      }),
      undefined,
      'the most a read with no pipeline reaches',
    );
    await floor.close();
    await baseline.close();
  }
  if (wanted('raw better-sqlite3 insert') || wanted('floor: the same raw insert')) await insertFloors();
  await casesAsAProcess(server, { actor, tokens, treeIds: seeded.treeIds, budgetTree, wanted });
}

/** The raw insert and the same with the search index: what any indexed insert can reach. */
async function insertFloors(): Promise<void> {
  const insertBaseline = await rawInsertBaseline(false);
  const raw = await load('bare Fastify + raw better-sqlite3 insert transaction', {
    url: `${insertBaseline.url}/`,
    method: 'POST',
    body: JSON.stringify(NEW_TASK),
    expectStatus: 201,
  });
  report(raw);
  await insertBaseline.close();
  const indexedBaseline = await rawInsertBaseline(true);
  report(
    await load('floor: the same raw insert into an empty table with the FTS5 trigram index search needs', {
      url: `${indexedBaseline.url}/`,
      method: 'POST',
      body: JSON.stringify(NEW_TASK),
      expectStatus: 201,
    }),
    raw,
    'the most any indexed insert can reach',
  );
  await indexedBaseline.close();
}

/** From here the service runs as npm start runs it, in a process of its own. */
async function casesAsAProcess(
  server: BenchServer,
  setup: {
    actor: Actor;
    tokens: string[];
    treeIds: string[];
    budgetTree: { id: string };
    wanted: (name: string) => boolean;
  },
): Promise<void> {
  const { actor, tokens, treeIds, budgetTree, wanted } = setup;
  const headers = { authorization: `Bearer ${tokens[0]}` };
  const { pid } = await server.asProcess();
  // Two words of one seeded title: a realistic query that finds a handful among 100,000.
  const words = taskFields(77_777).title.split(' ');
  const q = `${words[1]} ${words[3]!.slice(0, 4)}`;
  if (wanted('GET /api/v1/search')) {
    const matches = (await fetch(`${server.url}/api/v1/search?q=${encodeURIComponent(q)}&limit=200`, {
      headers,
    }).then((r) => r.json())) as { items: unknown[] };
    report(
      await load(`GET /api/v1/search, 2 terms (${matches.items.length} hits on page 1), 1 connection, 20 tokens`, {
        url: server.url,
        connections: 1,
        requests: tokens.map((value) => ({
          path: `/api/v1/search?q=${encodeURIComponent(q)}`,
          headers: { authorization: `Bearer ${value}` },
        })),
      }),
      undefined,
      'target p99 < 20 ms',
    );
  }
  // A week of deadlines among 100,000 tasks (two thirds carry one): the Upcoming page's shape.
  const week = 'deadline_after=2026-06-01&deadline_before=2026-06-07';
  if (wanted(`GET /api/v1/tasks?${week}`)) {
    const weekPage = (await fetch(`${server.url}/api/v1/tasks?${week}`, { headers }).then((r) => r.json())) as {
      items: unknown[];
    };
    report(
      await load(`GET /api/v1/tasks?${week} (${weekPage.items.length} on page 1), 1 connection, 20 tokens`, {
        url: server.url,
        connections: 1,
        requests: tokens.map((value) => ({
          path: `/api/v1/tasks?${week}`,
          headers: { authorization: `Bearer ${value}` },
        })),
      }),
      undefined,
      'target p99 < 20 ms',
    );
  }
  // The Trees page's cards: every tree's shape in one request (two trees of 50,000 and one at the export budget).
  const shapesName = 'GET /api/v1/tree-shapes, 3 trees of 110,000 tasks, 1 connection, 20 tokens';
  if (wanted(shapesName)) {
    const ids = [...treeIds, budgetTree.id].join(',');
    const shapes = await fetch(`${server.url}/api/v1/tree-shapes?ids=${ids}`, { headers });
    if (shapes.status !== 200) throw new Error(`tree-shapes answered ${shapes.status}`);
    report(
      await load(shapesName, {
        url: server.url,
        connections: 1,
        requests: tokens.map((value) => ({
          path: `/api/v1/tree-shapes?ids=${ids}`,
          headers: { authorization: `Bearer ${value}` },
        })),
      }),
      undefined,
      'target p99 < 50 ms',
    );
  }
  if (wanted('LIKE scan')) {
    const [first, second] = q.split(' ');
    const { deps: reader, close } = await openDeps(
      loadConfig({
        DATA_DIR: server.app.deps.config.dataDir,
        LOG_LEVEL: 'silent',
        ...(server.kind === 'postgres'
          ? {
              DATABASE_URL: server.app.deps.config.databaseUrl!,
              DATABASE_SCHEMA: server.app.deps.config.databaseSchema!,
            }
          : {}),
      }),
    );
    report(
      await time('LIKE scan of the same 100,000 tasks (baseline, in process)', 10, () =>
        sql`select id from tasks where owner_id = ${actor.user.id} and (lower(title) like ${`%${first}%`} or lower(text) like ${`%${first}%`} or lower(notes) like ${`%${first}%`}) and (lower(title) like ${`%${second}%`} or lower(text) like ${`%${second}%`} or lower(notes) like ${`%${second}%`}) order by seq limit 101`.execute(
          reader.db,
        ),
      ),
    );
    await close();
  }

  let next = 0;
  if (wanted('GET /api/v1/trees/{id}/export'))
    report(
      await time('GET /api/v1/trees/{id}/export at 10,000 contributors', 20, async () => {
        const answer = await fetch(`${server.url}/api/v1/trees/${budgetTree.id}/export`, {
          headers: { authorization: `Bearer ${tokens[next++ % tokens.length]}` },
        });
        if (answer.status !== 200) throw new Error(`export answered ${answer.status}`);
        await answer.arrayBuffer();
      }),
      undefined,
      'target < 300 ms',
    );
  if (!wanted('service RSS')) return;
  // V8 gives memory back once it sees the process idle (its memory reducer, some seconds after
  // the last full collection), so the RSS is read 5 s after the loads and again at 30 s.
  const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  await delay(5_000);
  const soon = rss();
  await delay(25_000);
  console.log(
    `| service RSS, idle after the loads, 110,000 tasks in the account | ${rss().toFixed(0)} MB after 30 s (${soon.toFixed(0)} MB after 5 s) | | | | | target < 200 MB |`,
  );
}

/**
 * Deadlines on two thirds of the owner's tasks, over two years from 2026-01-01: a date on every
 * third, a UTC timestamp on the next, none on the rest (the bulk path takes no deadline spread).
 */
async function spreadDeadlines(server: BenchServer, ownerId: string): Promise<void> {
  const db = server.app.deps.db;
  if (server.kind === 'postgres') {
    // One update of 100,000 rows: longer than the service's statement timeout on a busy machine.
    await db.transaction().execute(async (trx) => {
      await sql`set local statement_timeout = 0`.execute(trx);
      await sql`update tasks set deadline = case
          when seq % 3 = 0 then to_char(date '2026-01-01' + (seq % 730)::int, 'YYYY-MM-DD')
          when seq % 3 = 1 then to_char(timestamp '2026-01-01' + make_interval(days => (seq % 730)::int, hours => (seq % 24)::int), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
        end where owner_id = ${ownerId}`.execute(trx);
    });
  } else {
    await sql`update tasks set deadline = case
        when seq % 3 = 0 then date('2026-01-01', '+' || (seq % 730) || ' days')
        when seq % 3 = 1 then strftime('%Y-%m-%dT%H:%M:%SZ', '2026-01-01', '+' || (seq % 730) || ' days', '+' || (seq % 24) || ' hours')
      end where owner_id = ${ownerId}`.execute(db);
  }
  await refreshTaskStatistics(db);
}

/**
 * The ceiling of an authorized point read: Fastify answering the task and its tree from one
 * query compiled once and run on the service's own connection, with no credential, pipeline,
 * validation, ETag or journal around it.
 */
async function startReadFloor(server: BenchServer, taskId: string, ownerId: string) {
  const db = server.app.deps.db;
  const query =
    sql`select t.*, tr.owner_id as tree_owner_id, tr.name as tree_name from tasks t join trees tr on tr.id = t.tree_id where t.id = ${taskId} and t.owner_id = ${ownerId}`.compile(
      db,
    );
  return startBaseline((app) =>
    app.get('/', async () => {
      const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(query.sql, [taskId, ownerId]));
      return { task: rows[0] };
    }),
  );
}

/**
 * The write baseline: Fastify plus a prepared single-row INSERT in a transaction, same row shape.
 * With `searchIndex`, the table also carries the service's FTS5 trigram index and its trigger
 * (src/store/migrations/…-0003-search.ts), which CONTRACT §6 makes every task write maintain.
 */
async function rawInsertBaseline(searchIndex: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'tasktree-raw-'));
  const Database = loadSqlite();
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'create table tasks (seq integer primary key, id text unique, owner_id text, tree_id text, title text, text text, notes text, status text, color text, position integer, created_at text, updated_at text)',
  );
  if (searchIndex) {
    db.exec(`create virtual table tasks_fts using fts5(title, text, notes, content='tasks', content_rowid='seq', tokenize='trigram case_sensitive 0');
      create trigger tasks_fts_insert after insert on tasks begin
        insert into tasks_fts(rowid, title, text, notes) values (new.seq, new.title, new.text, new.notes);
      end`);
  }
  const insert = db.prepare(
    'insert into tasks (id, owner_id, tree_id, title, text, notes, status, color, position, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  let n = 0;
  const write = db.transaction((task: { title: string; text?: string; notes?: string }) => {
    const now = new Date().toISOString();
    insert.run(
      `tsk_${n++}`,
      'usr_x',
      'tre_x',
      task.title,
      task.text ?? '',
      task.notes ?? '',
      'todo',
      '#6b8e23',
      n,
      now,
      now,
    );
  });
  const server = await startBaseline((app) => {
    app.post('/', async (request, reply) => {
      write(request.body as { title: string; text?: string; notes?: string });
      return reply.code(201).send({ ok: true });
    });
  });
  return {
    url: server.url,
    async close() {
      await server.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
