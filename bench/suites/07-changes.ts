import { benchDatabases, makeAgent, printHeader, report, startServer, time, type BenchServer } from '../lib.js';
import { taskFields } from '../seed.js';
import { createTree } from '../../src/domain/trees/trees.js';
import { insertTasksBulk } from '../../src/domain/trees/tasks.js';
import { userActor } from '../../src/domain/actor.js';

const CASE = 'POST /api/v1/changes/{id}/revert, a 50-task change';
const TASKS = 50;
const RUNS = 30;

/**
 * Undo (CONTRACT §16.3): reverting a change of 50 created tasks, then reverting that revert, and
 * so on: each revert undoes 50 records (deletes them, then restores them with their ids and
 * fields), with its conflict checks, in one transaction (target < 200 ms on both databases).
 * `BENCH_CASE=revert npm run bench -- changes` runs only this case.
 */
export async function run(): Promise<void> {
  const only = process.env.BENCH_CASE;
  if (only !== undefined && !CASE.includes(only)) return;
  for (const kind of benchDatabases()) {
    printHeader(`Changes: undo (${kind})`);
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
  const tree = await createTree(deps, actor, { name: 'undo' });
  // One change of 50 tasks: one actor is one change (as one request is).
  await insertTasksBulk(
    deps,
    userActor(actor.user, 'cli'),
    tree.id,
    Array.from({ length: TASKS }, (_, i) => taskFields(i)),
  );
  const [last] = await deps.db
    .selectFrom('history')
    .select('change_id')
    .where('tree_id', '=', tree.id)
    .orderBy('seq', 'desc')
    .limit(1)
    .execute();
  let change = last!.change_id;
  const revert = async () => {
    const answer = await fetch(`${server.url}/api/v1/changes/${change}/revert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await answer.json()) as { change_id: string; reverted: number };
    if (answer.status !== 200 || body.reverted !== TASKS)
      throw new Error(`revert answered ${answer.status} ${JSON.stringify(body).slice(0, 300)}`);
    change = body.change_id;
  };
  await revert();
  await revert();
  report(await time(CASE, RUNS, revert), undefined, 'target p50 and p99 < 200 ms');
}
