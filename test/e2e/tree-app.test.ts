import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { connectMcp, type McpConnection } from '../helpers/mcp.js';
import { ensureMcpAppBuilt } from '../helpers/web-build.js';
import { browserDescribe, expectAccessible, launch, openPage, shot, type Watched } from './support/browser.js';
import { mcpHostPage } from './support/mcp-host-page.js';
import { layoutTree } from '../../web/src/tree/layout.js';

const HOST = 'http://host.test/';

/**
 * The MCP App of CONTRACT §17 tested as a host runs it: a page in Chromium frames the resource's
 * HTML (read from a real server with the official SDK client) in a sandboxed iframe, speaks to it
 * through ext-apps' AppBridge, and hands it a real get_tree result. The App must draw that tree
 * with the web app's layout code in the tree's style, one node per task with data-task-id, name
 * the drawing, and show a chosen task's title and status, with no console error.
 */
browserDescribe.each(databases)('the MCP App in a host (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let browser: Browser;
  let hostPage: string;
  let mcp: McpConnection;
  let w: Watched;
  let agent: any;
  const consoleErrors: string[] = [];
  /** Every request of the page and its frames: the App's document fetches nothing. */
  const requests: string[] = [];

  beforeAll(async () => {
    await ensureMcpAppBuilt();
    t = await startTestApp(kind);
    browser = await launch();
    hostPage = await mcpHostPage();
    const alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const token = await makeToken(alice, { scopes: ['read', 'write'] });
    mcp = await connectMcp(t.url, token.value);
    w = await openPage(browser, HOST);
    // Every frame's console: the App's own errors included.
    w.page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.location().url}: ${message.text()}`);
    });
    w.page.on('request', (request) => requests.push(request.url()));
    await w.page.route(HOST, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: hostPage }));
    agent = token.agent;
  });
  afterAll(async () => {
    await mcp?.close();
    await browser?.close();
    await t?.stop();
  });

  /** What a host does when the agent calls get_tree: find the tool's App, read it, call, and show. */
  async function showGetTree(args: Record<string, unknown>, locale?: string) {
    const tool = (await mcp.client.listTools()).tools.find((x) => x.name === 'get_tree')!;
    const uri = getToolUiResourceUri(tool)!;
    const read = await mcp.client.readResource({ uri });
    const html = (read.contents[0] as { text: string }).text;
    const result = await mcp.client.callTool({ name: 'get_tree', arguments: args });
    await w.page.goto(HOST);
    // As plain JSON: the SDK's Tool type is too deep for evaluate()'s serializable-argument type.
    const input: unknown = { html, tool, args, result, locale };
    await w.page.evaluate((shown) => (globalThis as any).showApp(shown), input);
    return { result, app: w.page.frameLocator('iframe') };
  }

  it("draws get_tree's result in the tree's style; choosing a task by mouse or keyboard shows its title and status", async () => {
    const tree = await makeTree(agent, { name: 'Orchard', style: 'space-colonization' });
    const pears = await makeProject(agent, tree.id, { name: 'Pears', color: '#c2410c' });
    const apples = await makeProject(agent, tree.id, { name: 'Apples', parent_id: pears.id });
    const prune = await makeTask(agent, tree.id, { project_id: pears.id, title: 'Prune the pears', status: 'open' });
    await makeTask(agent, tree.id, { project_id: apples.id, title: 'Pick the apples', status: 'done' });
    await makeTask(agent, tree.id, { project_id: apples.id, title: 'Press cider', status: 'deferred' });
    const gate = await makeTask(agent, tree.id, { title: 'Mend the gate <b>&</b>' });
    await makeTask(agent, tree.id, { title: 'Old fence', status: 'archived' });

    const { result, app } = await showGetTree({ id: tree.id });
    const snapshot = result.structuredContent as { tree: any; projects: any[]; tasks: any[] };
    expect(snapshot.tasks).toHaveLength(4); // the archived one is not in the snapshot

    const drawing = app.locator('svg.tree-drawing');
    await drawing.waitFor();
    expect(await drawing.getAttribute('role')).toBe('img');
    expect(await drawing.getAttribute('aria-label')).toBe('Drawing of the tree “Orchard”');
    expect(await drawing.getAttribute('data-style')).toBe('space-colonization');
    expect(await app.locator('h1').textContent()).toBe('Orchard');

    // One node per task, where the web app's layout places it (the same seeded drawing).
    const layout = layoutTree(
      { treeId: snapshot.tree.id, name: snapshot.tree.name, projects: snapshot.projects, tasks: snapshot.tasks },
      'space-colonization',
    );
    const nodes = (await app
      .locator('[data-task-id]')
      .evaluateAll((all) =>
        all.map((n) => ({ id: n.getAttribute('data-task-id'), x: n.getAttribute('cx'), y: n.getAttribute('cy') })),
      )) as { id: string; x: string; y: string }[];
    expect(nodes.map((n) => n.id).sort()).toEqual(snapshot.tasks.map((x) => x.id).sort());
    for (const leaf of layout.leaves)
      expect(nodes.find((n) => n.id === leaf.id)).toEqual({ id: leaf.id, x: String(leaf.x), y: String(leaf.y) });
    expect(await app.locator('[data-project-id]').count()).toBe(2);
    expect(await app.locator(`[data-task-id="${prune.id}"] title`).textContent()).toBe('Prune the pears (Open)');

    // The host sized its frame as the App asked.
    expect(await w.page.evaluate(() => (globalThis as any).hostEvents)).toEqual(
      expect.arrayContaining(['initialized {"name":"Task Tree","version":"1"}', 'result sent']),
    );
    await expect
      .poll(() => w.page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height))
      .toBeGreaterThan(250);
    expect(await w.page.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts');

    const chosen = app.locator('.app-chosen');
    expect(await chosen.getAttribute('aria-live')).toBe('polite');
    expect(await chosen.textContent()).toBe('Choose a leaf to see its task here.');

    await app.locator(`[data-task-id="${prune.id}"]`).click();
    expect(await app.locator('.app-chosen-title').textContent()).toBe('Prune the pears');
    expect(await app.locator('.app-chosen-status').textContent()).toBe('Status: Open');
    expect(await app.locator(`[data-task-id="${prune.id}"]`).getAttribute('class')).toContain('tree-leaf--selected');
    await shot(w.page, 'mcp-app-host');

    // By keyboard: Tab reaches the nodes, Enter chooses; the title is text, never markup.
    const frame = w.page.frames().find((f) => f !== w.page.mainFrame())!;
    const focused = () =>
      frame.evaluate('document.activeElement && document.activeElement.getAttribute("data-task-id")');
    await app.locator('h1').click();
    for (let i = 0; i < 12 && (await focused()) !== gate.id; i++) await w.page.keyboard.press('Tab');
    expect(await focused()).toBe(gate.id);
    await w.page.keyboard.press('Enter');
    expect(await app.locator('.app-chosen-title').textContent()).toBe('Mend the gate <b>&</b>');
    expect(await app.locator('.app-chosen-status').textContent()).toBe(
      `Status: ${gate.status === 'todo' ? 'To do' : 'Open'}`,
    );
    expect(await app.locator('.app-chosen b').count()).toBe(0);

    await app.locator(`[data-project-id="${apples.id}"]`).click();
    expect(await app.locator('.app-chosen-title').textContent()).toBe('Project Apples');

    await expectAccessible(frame, 'the MCP App');
    expect(consoleErrors).toEqual([]);
    expect(w.pageErrors).toEqual([]);
    expect(new Set(requests)).toEqual(new Set([HOST]));
  });

  it("speaks the host's language, and says why when get_tree failed", async () => {
    const tree = await makeTree(agent, { name: 'Сад' });
    const task = await makeTask(agent, tree.id, { title: 'Полить', status: 'done' });
    const { app } = await showGetTree({ id: tree.id }, 'ru-RU');
    await app.locator('svg.tree-drawing').waitFor();
    expect(await app.locator('svg.tree-drawing').getAttribute('aria-label')).toBe('Рисунок дерева «Сад»');
    await app.locator(`[data-task-id="${task.id}"]`).click();
    expect(await app.locator('.app-chosen-status').textContent()).toBe('Статус: Готово');

    const failed = await showGetTree({ id: 'tre_nope' });
    expect(failed.result.isError).toBe(true);
    const note = failed.app.locator('.app-note.failed');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^The tree could not be drawn: .+/);
    expect(await failed.app.locator('[data-task-id]').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    expect(w.pageErrors).toEqual([]);
  });
});
