import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { connectMcp } from '../helpers/mcp.js';

/** The trees list carries each tree's open and done tasks (CONTRACT §18, the Trees page's cards). */
describe.each(databases)('task_counts on the trees list (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('counts todo and open as open, done as done, and neither deferred nor archived', async () => {
    const alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const garden = await makeTree(alice.browser, { name: 'Garden' });
    const empty = await makeTree(alice.browser, { name: 'Empty' });
    for (const status of ['todo', 'todo', 'open', 'done', 'deferred', 'archived'])
      await makeTask(alice.browser, garden.id, { status });
    const page = await alice.browser.get('/api/v1/trees');
    expect(page.status).toBe(200);
    const byName = Object.fromEntries(page.body.items.map((x: any) => [x.name, x.task_counts]));
    expect(byName).toEqual({ Garden: { open: 3, done: 1 }, Empty: { open: 0, done: 0 } });
    // A page boundary between the trees: each page counts its own.
    const first = await alice.browser.get('/api/v1/trees?limit=1');
    expect(first.body.items[0].task_counts).toEqual({ open: 3, done: 1 });
    const second = await alice.browser.get(
      `/api/v1/trees?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.body.items).toMatchObject([{ id: empty.id, task_counts: { open: 0, done: 0 } }]);

    const { value } = await makeToken(alice, { scopes: ['read'] });
    const mcp = await connectMcp(t.url, value);
    try {
      const trees = await mcp.client.callTool({ name: 'list_trees', arguments: {} });
      expect((trees.structuredContent as any).items.map((x: any) => x.task_counts)).toEqual([
        { open: 3, done: 1 },
        { open: 0, done: 0 },
      ]);
    } finally {
      await mcp.close();
    }
  });
});
