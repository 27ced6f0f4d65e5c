import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import type { Client } from '../helpers/client.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { browserDescribe, expectAccessible, shot, sidewaysOverflow } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { TreePage } from './pages/tree.js';
import { HistoryTab } from './pages/history.js';

/** Long enough for two 5-second revalidations on a busy machine. */
const FRESH_WAIT = 20_000;

interface Seeded {
  person: Person;
  agent: Client;
  tokenId: string;
  garden: string;
  /** "Water the tomatoes", the person's own. */
  water: string;
}

/**
 * CONTRACT §16.4, changes and undo in the browser: an agent (a personal token, over REST) works in a
 * tree the person has open; the tree shows it within seconds without a reload, its leaves marked
 * with the agent's name; History lists the changes and undoes them (Undo, and Undo anyway after a
 * 409); the agent call journal and Agent settings undo them too.
 */
browserDescribe.each(databases)('undo what an agent did, in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);

  async function seed(language: 'en' | 'ru' = 'en'): Promise<Seeded> {
    const person = await makeUser(s.t.url, s.t.app, { plan: 'grove' });
    const api = person.browser;
    expect((await api.patch('/api/v1/auth/profile', { language })).status).toBe(200);
    const garden = (await api.post('/api/v1/trees', { name: 'Garden' })).body.tree.id as string;
    const water = (await api.post('/api/v1/tasks', { tree_id: garden, title: 'Water the tomatoes' })).body.task
      .id as string;
    const made = await makeToken(person, { name: 'Helper', scopes: ['read', 'write'] });
    return { person, agent: made.agent, tokenId: made.token.id as string, garden, water };
  }

  async function signInAs(page: Page, person: Person): Promise<void> {
    await page.context().clearCookies();
    await page
      .context()
      .addCookies([{ name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url }]);
  }

  /** The agent's writes, each answered with its change id. */
  async function agentCreates(seeded: Seeded, title: string): Promise<{ id: string; change: string }> {
    const answer = await seeded.agent.post('/api/v1/tasks', { tree_id: seeded.garden, title });
    expect(answer.status).toBe(201);
    const change = answer.headers.get('change-id');
    expect(change).toMatch(/^chg_/);
    return { id: answer.body.task.id as string, change: change! };
  }
  async function agentRenames(seeded: Seeded, id: string, title: string): Promise<string> {
    const answer = await seeded.agent.patch(`/api/v1/tasks/${id}`, { title });
    expect(answer.status).toBe(200);
    return answer.headers.get('change-id')!;
  }

  async function titlesStored(seeded: Seeded): Promise<string[]> {
    const snapshot = await seeded.person.browser.get(`/api/v1/trees/${seeded.garden}`);
    return (snapshot.body.tasks as { title: string }[]).map((x) => x.title).sort();
  }

  /** The list view's task titles, as the page shows them. */
  async function titlesShown(tree: TreePage): Promise<string[]> {
    return (await tree.listView.locator('.outline-title').allTextContents()).sort();
  }

  it('shows an agent’s work without a reload, marked with its name; History undoes it, and Undo anyway after a 409', async () => {
    const seeded = await seed();
    const { page } = s.w;
    await signInAs(page, seeded.person);
    await page.goto(`/trees/${seeded.garden}`);
    const tree = new TreePage(page);
    await tree.drawing.waitFor();
    await tree.listView.getByRole('button', { name: 'Water the tomatoes' }).waitFor();
    const before = await titlesStored(seeded);
    // A mark on the page that a reload would wipe.
    await page.evaluate('window.__stayed = true');

    const beans = await agentCreates(seeded, 'Sow beans');
    const peas = await agentCreates(seeded, 'Sow peas');
    const radishes = await agentCreates(seeded, 'Sow radishes');
    const renamed = await agentRenames(seeded, seeded.water, 'Water the tomatoes at dawn');

    // Within a revalidation or two: the new leaves, the new title, each marked with the agent's name.
    await tree.row('Sow radishes').waitFor({ timeout: FRESH_WAIT });
    await tree.listView.getByRole('button', { name: 'Water the tomatoes at dawn' }).waitFor({ timeout: FRESH_WAIT });
    for (const id of [beans.id, peas.id, radishes.id]) await tree.leaf(id).waitFor();
    expect(await page.evaluate('window.__stayed === true')).toBe(true);
    await tree.row('Sow beans').getByText('by Helper').waitFor();
    await page.locator('.tree-fresh .tree-fresh-name', { hasText: 'Helper' }).first().waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /Helper added .*Sow beans/ })
      .waitFor();
    await expectAccessible(page, 'tree with an agent’s fresh leaves');
    // The marks go after a few seconds.
    await page.locator('.tree-fresh').waitFor({ state: 'detached', timeout: FRESH_WAIT });
    expect(await tree.row('Sow beans').getByText('by Helper').count()).toBe(0);

    const history = await HistoryTab.open(page);
    // Newest first, one row per change: the rename, then the three creations, then the person's own.
    await history.change(renamed).waitFor();
    const keys = await history.rows().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-change-id')));
    expect(keys.slice(0, 4)).toEqual([renamed, radishes.change, peas.change, beans.change]);
    const row = history.change(renamed);
    // A change of one entry says it in a sentence, in the agent's name; the agent is marked as one.
    expect(await row.locator('.change-summary').textContent()).toBe(
      'Helper renamed the task “Water the tomatoes” to “Water the tomatoes at dawn”',
    );
    expect(await row.locator('.change-who').textContent()).toBe('Helper');
    expect(await row.locator('.badge.agent').textContent()).toBe('agent');
    expect(await row.locator('.change-meta').textContent()).toContain('via a personal token');
    await expectAccessible(page, 'History tab');
    await history.panel.scrollIntoViewIfNeeded();
    await shot(page, 'history-tab-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      expect(await sidewaysOverflow(page)).toBe(0);
      await history.panel.scrollIntoViewIfNeeded();
      await shot(page, 'history-tab-390');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // Undo the rename: asked first, in a dialog whose confirming button is also `Undo`.
    await row.getByRole('button', { name: 'Undo', exact: true }).click();
    await history.dialog.getByRole('heading', { name: 'Undo this change?' }).waitFor();
    await expectAccessible(page, 'undo dialog');
    await history.dialog.getByRole('button', { name: 'Undo', exact: true }).click();
    await history.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => titlesShown(tree)).toContain('Water the tomatoes');
    await history.change(renamed).locator('.badge', { hasText: 'Undone' }).waitFor();

    // Undo the creation of "Sow beans": its leaf and row go.
    await history.undo(beans.change);
    await history.dialog.waitFor({ state: 'detached' });
    await tree.leaf(beans.id).waitFor({ state: 'detached' });
    expect(await tree.row('Sow beans').count()).toBe(0);

    // The agent renamed "Sow peas" after creating it: undoing the creation names that later change.
    const later = await agentRenames(seeded, peas.id, 'Sow sweet peas');
    await tree.listView.getByRole('button', { name: 'Sow sweet peas' }).waitFor({ timeout: FRESH_WAIT });
    await history.change(later).waitFor({ timeout: FRESH_WAIT });
    await history.change(peas.change).getByRole('button', { name: 'Undo', exact: true }).click();
    await history.dialog.getByRole('button', { name: 'Undo', exact: true }).click();
    await history.dialog.getByRole('heading', { name: 'Changed again since' }).waitFor();
    await history.dialog
      .getByText(/Helper, an agent, .*: Helper renamed the task “Sow peas” to “Sow sweet peas”/)
      .waitFor();
    await expectAccessible(page, 'undo conflict dialog');
    await shot(page, 'history-undo-conflict-1280');
    await history.dialog.getByRole('button', { name: 'Undo anyway' }).click();
    await history.dialog.waitFor({ state: 'detached' });
    await tree.leaf(peas.id).waitFor({ state: 'detached' });

    // "Sow radishes" remains from the agent's work; everything else is as before.
    await history.undo(radishes.change);
    await history.dialog.waitFor({ state: 'detached' });
    await tree.leaf(radishes.id).waitFor({ state: 'detached' });
    await expect.poll(() => titlesShown(tree)).toEqual(before);
    expect(await titlesStored(seeded)).toEqual(before);
    expect(s.w.pageErrors).toEqual([]);
    expect(s.w.cspViolations).toEqual([]);
  }, 120_000);

  it('undoes an agent’s call from the journal, and its link opens the change in the tree’s History', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const carrots = await agentCreates(seeded, 'Sow carrots');
    const renamed = await agentRenames(seeded, seeded.water, 'Water the tomatoes twice');
    await signInAs(page, seeded.person);
    await page.goto('/agents');
    const journal = page.getByRole('region', { name: 'Agent call journal' });
    const renameCall = journal.getByRole('row').filter({ hasText: 'PATCH /tasks/{id}' });
    await renameCall.waitFor();
    await expectAccessible(page, 'journal with changes');

    await renameCall.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await journal.getByRole('status').filter({ hasText: 'Undone: 1 record put back.' }).waitFor();
    await renameCall.getByText('Undone').waitFor();
    const stored = await seeded.person.browser.get(`/api/v1/tasks/${seeded.water}`);
    expect(stored.body.task.title).toBe('Water the tomatoes');

    // The creation's link: the tree opens with that change in History, and it undoes from there.
    const createCall = journal.getByRole('row').filter({ hasText: 'POST /tasks' });
    await createCall.getByRole('link', { name: 'Change' }).click();
    await page.waitForURL(new RegExp(`/trees/${seeded.garden}\\?change=${carrots.change}`));
    const tree = new TreePage(page);
    await tree.drawing.waitFor();
    const history = new HistoryTab(page);
    await history.change(carrots.change).getByText('Sow carrots', { exact: false }).waitFor();
    expect(await history.rows().count()).toBe(1);
    await history.undo(carrots.change);
    await history.dialog.waitFor({ state: 'detached' });
    await tree.leaf(carrots.id).waitFor({ state: 'detached' });
    await expect.poll(() => titlesShown(tree)).toEqual(['Water the tomatoes']);
    // Then every change again.
    await page.getByRole('button', { name: 'Show all changes' }).click();
    await history.change(renamed).waitFor();
  }, 60_000);

  it('undoes everything a token did in a tree since a moment, from Agent settings', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const before = await titlesStored(seeded);
    await agentCreates(seeded, 'Sow beans');
    await agentCreates(seeded, 'Sow peas');
    await agentRenames(seeded, seeded.water, 'Water the tomatoes at noon');
    await signInAs(page, seeded.person);
    await page.goto('/agents');
    const row = page
      .getByRole('region', { name: 'Personal tokens' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Helper', exact: true }) });
    await row.getByRole('button', { name: 'Undo its changes in a tree since…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Undo what “Helper” changed' });
    expect(await dialog.getByLabel('Tree').inputValue()).toBe(seeded.garden);
    expect(await dialog.getByLabel('Since').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await expectAccessible(page, 'undo since dialog');
    await shot(page, 'undo-since-1280');
    await dialog.getByRole('button', { name: 'Undo', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Undone: 3 records put back, from 3 changes.' }).waitFor();
    expect(await titlesStored(seeded)).toEqual(before);
    await page.goto(`/trees/${seeded.garden}`);
    const tree = new TreePage(page);
    await tree.drawing.waitFor();
    expect(await titlesShown(tree)).toEqual(before);
  }, 60_000);

  it('reads in Russian: the History tab, an agent’s import counted and opened, Undo', async () => {
    const seeded = await seed('ru');
    const { page } = s.w;
    await signInAs(page, seeded.person);
    await page.goto(`/trees/${seeded.garden}`);
    const tree = new TreePage(page);
    await tree.drawing.waitFor();
    const imported = await seeded.agent.request('POST', `/api/v1/trees/${seeded.garden}/import`, {
      raw: 'title\nПосеять бобы\nПосеять горох\n',
      contentType: 'text/csv',
    });
    expect(imported.status).toBe(201);
    const change = imported.headers.get('change-id')!;
    await tree.row('Посеять горох').waitFor({ timeout: FRESH_WAIT });
    await page
      .getByRole('status')
      .filter({ hasText: /Helper добавил .*«Посеять бобы»/ })
      .waitFor();
    const history = await HistoryTab.open(page, 'История');
    const row = history.change(change);
    await row.waitFor();
    // A change of two entries is counted, and opens to its entries.
    const toggle = row.getByRole('button', { name: 'Задачи: импортировано 2' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await row.locator('.badge.agent').textContent()).toBe('агент');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await row.getByText('Helper: задача «Посеять горох» импортирована из CSV').waitFor();
    await expectAccessible(page, 'History tab in Russian');
    await history.panel.scrollIntoViewIfNeeded();
    await shot(page, 'history-tab-ru-1280');
    await row.getByRole('button', { name: 'Отменить', exact: true }).click();
    await history.dialog.getByRole('heading', { name: 'Отменить это изменение?' }).waitFor();
    await history.dialog.getByRole('button', { name: 'Отменить', exact: true }).click();
    await history.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => titlesShown(tree)).toEqual(['Water the tomatoes']);
    await history.panel.getByRole('status').filter({ hasText: 'Отменено: возвращены 2 записи.' }).waitFor();
  }, 60_000);
});
