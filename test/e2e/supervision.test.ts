import type { Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { connectMcp, toolErrorOf } from '../helpers/mcp.js';
import { browserDescribe, expectAccessible, shot, sidewaysOverflow } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { AgentsPage } from './pages/agents.js';
import { TreePage } from './pages/tree.js';

interface Seeded {
  person: Person;
  garden: string;
  orchard: string;
  meadow: string;
  /** "Water the tomatoes" in Garden. */
  task: string;
  /** "Prune the apples" in Orchard. */
  apples: string;
}

/**
 * CONTRACT §16.4 for §16.1 and §16.2 in the browser: the token dialog's `Trees` choice (and what such
 * a token then sees through MCP), and the conflict dialog when an agent saved the task a person has
 * open (If-Match on every edit, 412, `Keep theirs`, `Overwrite`).
 */
browserDescribe.each(databases)('agents under supervision in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);

  /** A Grove person with trees Garden and Orchard (a task each), and Meadow, shared with them as editor. */
  async function seed(): Promise<Seeded> {
    const person = await makeUser(s.t.url, s.t.app, { plan: 'grove' });
    const api = person.browser;
    const garden = (await api.post('/api/v1/trees', { name: 'Garden' })).body.tree.id as string;
    const orchard = (await api.post('/api/v1/trees', { name: 'Orchard' })).body.tree.id as string;
    const task = (await api.post('/api/v1/tasks', { tree_id: garden, title: 'Water the tomatoes' })).body.task
      .id as string;
    const apples = (await api.post('/api/v1/tasks', { tree_id: orchard, title: 'Prune the apples' })).body.task
      .id as string;
    const friend = await makeUser(s.t.url, s.t.app, { plan: 'grove' });
    const meadow = (await friend.browser.post('/api/v1/trees', { name: 'Meadow' })).body.tree.id as string;
    const invited = await friend.browser.post(`/api/v1/trees/${meadow}/members`, {
      email: person.email,
      role: 'editor',
    });
    expect(invited.status).toBe(201);
    const accepted = await api.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
      token: inviteToken(invited),
    });
    expect(accepted.status).toBe(200);
    return { person, garden, orchard, meadow, task, apples };
  }

  async function signInAs(page: Page, person: Person): Promise<void> {
    await page.context().clearCookies();
    await page
      .context()
      .addCookies([{ name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url }]);
  }

  /** The task panel of "Water the tomatoes", opened from its link. */
  async function openPanel(page: Page, seeded: Seeded) {
    await signInAs(page, seeded.person);
    await page.goto(`/trees/${seeded.garden}?task=${seeded.task}`);
    const tree = new TreePage(page);
    await tree.drawing.waitFor();
    const panel = tree.panel;
    await panel.getByLabel('Title', { exact: true }).waitFor();
    return { tree, panel };
  }

  /** Every PATCH of a task the page sends, with its If-Match. */
  function watchTaskWrites(page: Page): { ifMatch: (string | undefined)[]; stop(): void } {
    const ifMatch: (string | undefined)[] = [];
    const listener = (request: Request) => {
      if (request.method() === 'PATCH' && /\/api\/v1\/tasks\//.test(request.url()))
        ifMatch.push(request.headers()['if-match']);
    };
    page.on('request', listener);
    return { ifMatch, stop: () => page.off('request', listener) };
  }

  it('makes a token for chosen trees in the token dialog; through MCP it sees only those trees', async () => {
    const seeded = await seed();
    const { page } = s.w;
    await signInAs(page, seeded.person);
    await page.goto('/trees');
    const agents = await AgentsPage.open(page);

    await page.getByRole('button', { name: 'Create token' }).click();
    const trees = agents.treesGroup;
    expect(await trees.getByRole('radio', { name: 'All trees' }).isChecked()).toBe(true);
    expect(await trees.getByRole('checkbox').count()).toBe(0);
    await trees.getByRole('radio', { name: 'Chosen trees' }).check();
    // Own trees and the shared one, each labelled with its name.
    for (const name of ['Garden', 'Orchard', 'Meadow'])
      expect(await trees.getByRole('checkbox', { name, exact: true }).isChecked()).toBe(false);
    // None chosen yet: nothing to create.
    expect(await agents.dialog.getByRole('button', { name: 'Create token' }).isDisabled()).toBe(true);
    await trees.getByRole('checkbox', { name: 'Garden', exact: true }).check();
    await agents.dialog.getByLabel('Name').fill('Gardener');
    await expectAccessible(page, 'token dialog with chosen trees');
    await shot(page, 'token-dialog-trees-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      expect(await sidewaysOverflow(page)).toBe(0);
      await trees.scrollIntoViewIfNeeded();
      await shot(page, 'token-dialog-trees-390');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await agents.dialog.getByRole('button', { name: 'Cancel' }).click();
    await agents.dialog.waitFor({ state: 'detached' });

    const value = await agents.createToken('Gardener', '30 days', ['Garden']);
    expect(value).toMatch(/^ttp_/);
    const everywhere = await agents.createToken('Everywhere');
    expect(everywhere).toMatch(/^ttp_/);
    await page.reload();
    // The names come with the trees list, which may answer after the tokens.
    await agents.tokenRow('Gardener').getByRole('cell', { name: 'Garden', exact: true }).waitFor();
    await agents.tokenRow('Everywhere').getByRole('cell', { name: 'All trees', exact: true }).waitFor();
    await expectAccessible(page, 'tokens table with trees');

    const listed = await seeded.person.browser.get('/api/v1/tokens');
    const made = (listed.body.items as { name: string; tree_ids: string[] | null }[]).find(
      (x) => x.name === 'Gardener',
    );
    expect(made?.tree_ids).toEqual([seeded.garden]);

    const mcp = await connectMcp(s.t.url, value);
    try {
      const seen = await mcp.client.callTool({ name: 'list_trees', arguments: {} });
      expect((seen.structuredContent as { items: { id: string }[] }).items.map((x) => x.id)).toEqual([seeded.garden]);
      const own = await mcp.client.callTool({ name: 'get_task', arguments: { id: seeded.task } });
      expect(own.isError).toBeFalsy();
      const other = await mcp.client.callTool({ name: 'get_task', arguments: { id: seeded.apples } });
      expect(toolErrorOf(other).code).toBe('not_found');
    } finally {
      await mcp.close();
    }
  });

  it('shows an agent’s save in the conflict dialog; Keep theirs leaves the agent’s value', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const agent = (await makeToken(seeded.person, { name: 'Helper', scopes: ['read', 'write'] })).agent;
    const writes = watchTaskWrites(page);
    try {
      const { tree, panel } = await openPanel(page, seeded);
      const title = panel.getByLabel('Title', { exact: true });
      const notes = panel.getByLabel('Notes', { exact: true });
      // A first save: the app now holds the task's ETag from that answer.
      await notes.fill('Morning is best');
      await panel.getByRole('button', { name: 'Save' }).click();
      await panel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

      // The agent renames the task while the panel stays open.
      expect((await agent.patch(`/api/v1/tasks/${seeded.task}`, { title: 'Water the tomatoes at dawn' })).status).toBe(
        200,
      );
      await title.fill('Water the tomatoes twice');
      await panel.getByRole('button', { name: 'Save' }).click();
      const conflict = page.getByRole('dialog', { name: 'Changed while you were editing' });
      await conflict.waitFor();
      const row = conflict.locator('[data-field="title"]');
      expect(await row.locator('.conflict-theirs .conflict-value').textContent()).toBe('Water the tomatoes at dawn');
      expect(await row.locator('.conflict-mine .conflict-value').textContent()).toBe('Water the tomatoes twice');
      expect(await conflict.locator('[data-field="notes"]').count()).toBe(0);
      await expectAccessible(page, 'conflict dialog');
      await shot(page, 'conflict-dialog-1280');
      // Every task write carried If-Match, the second one the tag of the first's answer.
      expect(writes.ifMatch).toHaveLength(2);
      for (const tag of writes.ifMatch) expect(tag).toMatch(/^"[^"]+"$/);

      // Escape decides nothing: the dialog goes, the person's words stay, focus goes back to Save.
      await page.keyboard.press('Escape');
      await conflict.waitFor({ state: 'detached' });
      expect(await title.inputValue()).toBe('Water the tomatoes twice');
      await expect.poll(() => page.evaluate('document.activeElement?.textContent ?? ""')).toBe('Save');

      await panel.getByRole('button', { name: 'Save' }).click();
      await conflict.getByRole('button', { name: 'Keep theirs' }).click();
      await conflict.waitFor({ state: 'detached' });
      await expect.poll(() => title.inputValue()).toBe('Water the tomatoes at dawn');
      await tree.listView.getByRole('button', { name: 'Water the tomatoes at dawn' }).waitFor();
      const stored = await seeded.person.browser.get(`/api/v1/tasks/${seeded.task}`);
      expect(stored.body.task).toMatchObject({ title: 'Water the tomatoes at dawn', notes: 'Morning is best' });
      // Nothing left to save: closing the panel asks nothing.
      s.w.dialogs.length = 0;
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      expect(s.w.dialogs).toEqual([]);
    } finally {
      writes.stop();
    }
  });

  it('Overwrite sends the person’s values again with the fresh ETag, and they win; fits a phone', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const agent = (await makeToken(seeded.person, { name: 'Helper', scopes: ['read', 'write'] })).agent;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const { panel } = await openPanel(page, seeded);
      // Opened from the tree's snapshot: the agent's save comes before the app has this task's own tag.
      expect(
        (await agent.patch(`/api/v1/tasks/${seeded.task}`, { title: 'Agent title', notes: 'Agent notes' })).status,
      ).toBe(200);
      await panel.getByLabel('Title', { exact: true }).fill('My title');
      await panel.getByRole('button', { name: 'Save' }).click();
      const conflict = page.getByRole('dialog', { name: 'Changed while you were editing' });
      await conflict.waitFor();
      // The notes the agent changed and the person did not: theirs, and "you did not change this".
      const notes = conflict.locator('[data-field="notes"]');
      expect(await notes.locator('.conflict-theirs .conflict-value').textContent()).toBe('Agent notes');
      expect(await notes.locator('.conflict-mine .conflict-value').textContent()).toBe('you did not change this');
      expect(await sidewaysOverflow(page)).toBe(0);
      await expectAccessible(page, 'conflict dialog on a phone');
      await shot(page, 'conflict-dialog-390');

      await conflict.getByRole('button', { name: 'Overwrite' }).click();
      await conflict.waitFor({ state: 'detached' });
      await panel.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      expect(await panel.getByLabel('Title', { exact: true }).inputValue()).toBe('My title');
      // Only the person's field was sent: the agent's notes stay.
      expect(await panel.getByLabel('Notes', { exact: true }).inputValue()).toBe('Agent notes');
      const stored = await seeded.person.browser.get(`/api/v1/tasks/${seeded.task}`);
      expect(stored.body.task).toMatchObject({ title: 'My title', notes: 'Agent notes' });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
