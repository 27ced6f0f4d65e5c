import { alternate, benchDatabases, makeAgent, printHeader, report, startServer, type BenchServer } from '../lib.js';
import { taskFields } from '../seed.js';
import { createTask } from '../../src/domain/trees/tasks.js';
import { createTree } from '../../src/domain/trees/trees.js';
import { inviteMember } from '../../src/domain/trees/members.js';
import { acceptInvitation } from '../../src/domain/trees/invitations.js';
import { verifyEmailByOperator } from '../../src/domain/accounts/email-verification.js';
import { userActor } from '../../src/domain/actor.js';
import { getUserByEmail, registerUser, setUserPlan } from '../../src/domain/accounts/accounts.js';
import { createToken } from '../../src/domain/agents/tokens.js';

const ROWS = 10_000;

/**
 * Teams: a 10,000-row CSV import (rows/s and the process's peak RSS growth) next to creating the
 * same tasks one by one through the domain, and a task read on a shared tree next to the same
 * read on an owned one (targets: import < 3 s on SQLite, < 6 s on PostgreSQL, RSS growth
 * < 150 MB; shared read within 10 % of owned).
 */
export async function run(): Promise<void> {
  for (const kind of benchDatabases()) {
    printHeader(`Teams: CSV import and shared reads (${kind})`);
    // Two readers compared with each other rather than a client's load (01-clients has those):
    // one token each, so the per-token limit is raised for this suite alone.
    const server = await startServer(kind, { RATE_LIMIT_PER_MINUTE: '1000000000' });
    try {
      await measure(server);
    } finally {
      await server.close();
    }
  }
}

function csvOf(rows: number): string {
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const lines = ['title,text,notes,status,project'];
  for (let i = 0; i < rows; i++) {
    const t = taskFields(i);
    lines.push(
      [
        quote(t.title),
        quote(t.text),
        quote(t.notes),
        i % 5 === 0 ? 'done' : 'todo',
        `Area ${i % 20}/Part ${i % 3}`,
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function measure(server: BenchServer): Promise<void> {
  const deps = server.app.deps;
  const { actor, token } = await makeAgent(server, 'grove');
  const headers = { authorization: `Bearer ${token}` };
  const csv = csvOf(ROWS);

  const oneByOneTree = await createTree(deps, actor, { name: 'one by one' });
  const started = performance.now();
  for (let i = 0; i < ROWS; i++) await createTask(deps, actor, { tree_id: oneByOneTree.id, ...taskFields(i) });
  const oneByOne = (performance.now() - started) / 1000;
  console.log(
    `| baseline: ${ROWS} createTask calls through the domain, one transaction each | ${(ROWS / oneByOne).toFixed(0)} tasks/s | | | | | ${oneByOne.toFixed(2)} s |`,
  );

  const importTree = await createTree(deps, actor, { name: 'imported' });
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 5);
  const importStarted = performance.now();
  const answer = await fetch(`${server.url}/api/v1/trees/${importTree.id}/import`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'text/csv' },
    body: csv,
  });
  const body = await answer.text();
  const seconds = (performance.now() - importStarted) / 1000;
  clearInterval(sampler);
  if (answer.status !== 201) throw new Error(`import answered ${answer.status} ${body.slice(0, 300)}`);
  const growth = (rssPeak - rssBefore) / 1024 / 1024;
  const target = server.kind === 'sqlite' ? 'target < 3 s' : 'target < 6 s';
  console.log(
    `| POST /trees/{id}/import, ${ROWS} rows (${(csv.length / 1024 / 1024).toFixed(1)} MiB, 60 projects) | ${(ROWS / seconds).toFixed(0)} rows/s | | | ${(oneByOne / seconds).toFixed(1)}× faster | | ${seconds.toFixed(2)} s (${target}); peak RSS +${growth.toFixed(0)} MB (target < 150 MB) |`,
  );

  // The same read on an owned tree and, by a member, on a shared one.
  const email = `member-${Date.now()}@example.test`;
  await registerUser(deps, { email, password: 'bench password 123' });
  await setUserPlan(deps, email, 'sprout', null);
  await verifyEmailByOperator(deps, email);
  const member = userActor(await getUserByEmail(deps, email), 'cli');
  const invitation = await inviteMember(deps, actor, importTree.id, { email, role: 'viewer' });
  await acceptInvitation(deps, member, invitation.member.id);
  const memberToken = (await createToken(deps, member, { name: 'bench member', scopes: ['read'] })).value;
  const [task] = await deps.db
    .selectFrom('tasks')
    .select('id')
    .where('tree_id', '=', importTree.id)
    .orderBy('seq', 'desc')
    .limit(1)
    .execute();
  const url = `${server.url}/api/v1/tasks/${task!.id}`;
  const [owned, shared] = await alternate(
    ['GET /api/v1/tasks/{id}, owner, owned tree', { url, headers }],
    ['GET /api/v1/tasks/{id}, viewer, shared tree', { url, headers: { authorization: `Bearer ${memberToken}` } }],
  );
  report(owned);
  report(shared, owned, 'target ≥ 0.9× (within 10 %)');
}
