import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, makeTestEnv, startApp, type Running, type TestEnv } from '../helpers/app.js';
import { cliEnvOf, tasktree, type CliResult } from '../helpers/cli.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTree } from '../helpers/data.js';

// `tasktree changes revert`, as its own process, through the domain functions REST uses (CONTRACT §16.3).
describe.each(databases)('tasktree changes revert (%s)', { timeout: 180_000 }, (kind) => {
  let env: TestEnv;
  let app: Running;
  let childEnv: Record<string, string>;
  const cli = (...args: string[]): Promise<CliResult> => tasktree(childEnv, ...args);

  beforeAll(async () => {
    env = makeTestEnv(kind);
    app = await startApp(env);
    childEnv = cliEnvOf(env);
  });
  afterAll(async () => {
    await app.close();
    await env.dispose();
  });

  it('reverts one change by id, and a credential’s changes in a tree since a moment', async () => {
    const owner = await makeUser(app.url, app.app, { plan: 'sprout' });
    const made = await makeToken(owner, { name: 'Runaway' });
    const tree = await makeTree(owner.browser, { name: 'Operator' });
    const one = await made.agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'One' });
    const change = one.headers.get('change-id')!;
    const reverted = await cli('changes', 'revert', '--id', change);
    expect(reverted.code, reverted.stderr).toBe(0);
    const body = JSON.parse(reverted.stdout);
    expect(body).toMatchObject({ reverted: 1, skipped: [], change_id: expect.stringMatching(/^chg_/) });
    expect((await owner.browser.get(`/api/v1/tasks/${one.body.task.id}`)).status).toBe(404);
    const [entry] = (await owner.browser.get(`/api/v1/trees/${tree.id}/history?change_id=${body.change_id}`)).body
      .items;
    expect(entry).toMatchObject({ via: 'cli', action: 'deleted', reverts: change, credential_id: null });
    // Reverted already: a failure (1) that says so.
    const again = await cli('changes', 'revert', '--id', change);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('conflict');

    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const ids: string[] = [];
    for (const title of ['Two', 'Three'])
      ids.push((await made.agent.post('/api/v1/tasks', { tree_id: tree.id, title })).body.task.id);
    const byTree = await cli('changes', 'revert', '--tree', tree.id, '--credential', made.token.id, '--since', since);
    expect(byTree.code, byTree.stderr).toBe(0);
    expect(JSON.parse(byTree.stdout)).toMatchObject({ reverted: 2, changes: expect.any(Array) });
    expect(JSON.parse(byTree.stdout).changes).toHaveLength(2);
    for (const id of ids) expect((await owner.browser.get(`/api/v1/tasks/${id}`)).status).toBe(404);
  });

  it('tells usage (2) from failure (1)', async () => {
    expect((await cli('changes', 'revert')).code).toBe(2);
    expect((await cli('changes', 'revert', '--id', 'chg_x', '--tree', 'tre_x')).code).toBe(2);
    expect((await cli('changes', 'revert', '--tree', 'tre_x', '--credential', 'pat_x')).code).toBe(2);
    const unknown = await cli('changes', 'revert', '--id', 'chg_unknown');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not_found');
  });
});
