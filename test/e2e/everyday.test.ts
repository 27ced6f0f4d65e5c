import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { inviteToken, makeUser, PASSWORD, type Person } from '../helpers/factories.js';
import { browserDescribe, expectAccessible, openPage, shot } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { TreePage } from './pages/tree.js';
import { TreesPage } from './pages/trees.js';

/** The ids of what a test seeds through the API. */
interface Seeded {
  person: Person;
  tree: string;
  other: string;
  veg: string;
  beds: string;
  tasks: Record<string, string>;
}

/**
 * CONTRACT §18 "A person's everyday actions in the app": projects edited and moved, the archive
 * and Restore, a task moved to another tree, the one-click Done with Undo, task links and sign-in
 * returning to them, the unsaved-edits question, and dialogs' focus and Escape.
 */
browserDescribe.each(databases)('everyday actions in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);

  /** A Grove person with a tree "Garden" (Vegetables › Beds, three tasks) and a second tree "Orchard" (project Apples). */
  async function seed(language: 'en' | 'ru' = 'en'): Promise<Seeded> {
    const person = await makeUser(s.t.url, s.t.app, { plan: 'grove' });
    const api = person.browser;
    if (language !== 'en') expect((await api.patch('/api/v1/auth/profile', { language })).status).toBe(200);
    const tree = (await api.post('/api/v1/trees', { name: 'Garden' })).body.tree.id as string;
    const other = (await api.post('/api/v1/trees', { name: 'Orchard' })).body.tree.id as string;
    await api.post('/api/v1/projects', { tree_id: other, name: 'Apples' });
    const veg = (await api.post('/api/v1/projects', { tree_id: tree, name: 'Vegetables' })).body.project.id as string;
    const beds = (await api.post('/api/v1/projects', { tree_id: tree, name: 'Beds', parent_id: veg })).body.project
      .id as string;
    const tasks: Record<string, string> = {};
    for (const [title, project] of [
      ['Water the tomatoes', beds],
      ['Buy seeds', veg],
      ['Fix the fence', null],
    ] as const)
      tasks[title] = (await api.post('/api/v1/tasks', { tree_id: tree, title, project_id: project })).body.task.id;
    return { person, tree, other, veg, beds, tasks };
  }

  async function signInAs(page: Page, person: Person): Promise<void> {
    await page.context().clearCookies();
    await page
      .context()
      .addCookies([{ name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url }]);
  }

  async function openTree(page: Page, seeded: Seeded, query = ''): Promise<TreePage> {
    await signInAs(page, seeded.person);
    await page.goto(`/trees/${seeded.tree}${query}`);
    const tree = new TreePage(page);
    await tree.drawing.waitFor();
    return tree;
  }

  const api = (seeded: Seeded) => seeded.person.browser;
  const focusedIs = (page: Page, selector: string) =>
    page.evaluate(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`);
  const focusedText = (page: Page) => page.evaluate('document.activeElement?.textContent ?? ""');
  const noSidewaysScroll = (page: Page) =>
    page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

  it('edits a project from the list and the drawing, moves it to another parent and tree, deletes it with its contents', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const tree = await openTree(page, seeded);
    // Choosing a project's name in the list view opens its editor.
    await tree.projectName('Vegetables').click();
    const dialog = page.getByRole('dialog', { name: 'Edit project' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Vegetables');
    await expectAccessible(page, 'project editor');
    await shot(page, 'project-editor-1280');
    await dialog.getByLabel('Name').fill('Greens');
    await dialog.getByLabel('Description').fill('Everything leafy');
    await dialog.getByLabel('Color').fill('#aa3355');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await tree.projectName('Greens').waitFor();
    const veg = (await api(seeded).get(`/api/v1/projects/${seeded.veg}`)).body.project;
    expect(veg).toMatchObject({ name: 'Greens', description: 'Everything leafy', color: '#aa3355' });

    // A project node in the drawing opens the same editor (keyboard: focus and Enter).
    await tree.project(seeded.beds).focus();
    await page.keyboard.press('Enter');
    const beds = page.getByRole('dialog', { name: 'Edit project' });
    expect(await beds.getByLabel('Name').inputValue()).toBe('Beds');
    // A project cannot go under itself: its own name is not among the places offered.
    const places = await beds.getByLabel('Inside project').locator('option').allTextContents();
    expect(places).toEqual(['At the trunk', 'Greens']);
    await beds.getByLabel('Inside project').selectOption({ label: 'At the trunk' });
    await beds.getByRole('button', { name: 'Save' }).click();
    await beds.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await api(seeded).get(`/api/v1/projects/${seeded.beds}`)).body.project.parent_id)
      .toBe(null);

    // To another tree: under one of that tree's projects, with its tasks.
    await tree.projectName('Beds').click();
    await dialog.getByLabel('Tree').selectOption({ label: 'Orchard' });
    await expect
      .poll(() => dialog.getByLabel('Inside project').locator('option').allTextContents())
      .toEqual(['At the trunk', 'Apples']);
    await dialog.getByLabel('Inside project').selectOption({ label: 'Apples' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'The project “Beds” moved to the tree “Orchard”' }).waitFor();
    await tree.projectName('Beds').waitFor({ state: 'detached' });
    await tree.row('Water the tomatoes').waitFor({ state: 'detached' });
    const moved = (await api(seeded).get(`/api/v1/projects/${seeded.beds}`)).body.project;
    expect(moved.tree_id).toBe(seeded.other);
    const carried = (await api(seeded).get(`/api/v1/tasks/${seeded.tasks['Water the tomatoes']}`)).body.task;
    expect(carried).toMatchObject({ tree_id: seeded.other, project_id: seeded.beds });

    // Delete, with the cascade named and confirmed: the project and its task go.
    await tree.projectName('Greens').click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this project?' });
    await confirm.getByText('sub-projects: 0, tasks: 1').waitFor();
    await expectAccessible(page, 'project delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await tree.projectName('Greens').waitFor({ state: 'detached' });
    await tree.row('Buy seeds').waitFor({ state: 'detached' });
    expect((await api(seeded).get(`/api/v1/projects/${seeded.veg}`)).status).toBe(404);
    expect((await api(seeded).get(`/api/v1/tasks/${seeded.tasks['Buy seeds']}`)).status).toBe(404);
  });

  it('shows archived tasks, found by a search or in the Archived tab, and restores them', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const fence = seeded.tasks['Fix the fence']!;
    await api(seeded).patch(`/api/v1/tasks/${fence}`, { status: 'archived' });
    const tree = await openTree(page, seeded);
    await tree.row('Buy seeds').waitFor();
    expect(await tree.row('Fix the fence').count()).toBe(0);

    // A search that counts a task shows it: an archived one under the search, with Restore.
    await tree.search('fence');
    await page.getByText('1 task found').waitFor();
    const hits = page.locator('.archived-hits');
    await hits.getByText('Fix the fence').waitFor();
    await expectAccessible(page, 'search with an archived match');
    await shot(page, 'search-archived-1280');
    await hits.getByRole('button', { name: 'Restore' }).click();
    await tree.row('Fix the fence').waitFor();
    expect((await api(seeded).get(`/api/v1/tasks/${fence}`)).body.task.status).toBe('todo');
    // The search narrowed the list view to its matches; the whole tree comes back on request.
    await page.getByRole('button', { name: 'Show the whole tree' }).click();

    // Archived from the panel, it waits in the Archived tab.
    const panel = await tree.openTask('Buy seeds');
    await panel.field('Status').selectOption({ label: 'Archived' });
    await panel.save();
    await tree.row('Buy seeds').waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Archived' }).click();
    const archived = page.getByRole('tabpanel');
    await archived.getByText('Buy seeds').waitFor();
    await expectAccessible(page, 'archived tab');
    await shot(page, 'archived-tab-1280');
    await archived.getByRole('button', { name: 'Restore' }).click();
    await archived.getByText('No archived tasks.').waitFor();
    await page.getByRole('tab', { name: 'Tasks' }).click();
    await tree.row('Buy seeds').waitFor();
    expect((await api(seeded).get(`/api/v1/tasks/${seeded.tasks['Buy seeds']}`)).body.task.status).toBe('todo');
  });

  it('moves a task to another tree from its panel, and the notice opens it there', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const tree = await openTree(page, seeded);
    const panel = await tree.openTask('Fix the fence');
    await panel.field('Tree').selectOption({ label: 'Orchard' });
    await expect
      .poll(() => panel.field('Project').locator('option').allTextContents())
      .toEqual(['Not in a project', 'Apples']);
    await panel.field('Project').selectOption({ label: 'Apples' });
    await panel.save();
    const notice = page.getByRole('status').filter({ hasText: '“Fix the fence” moved to the tree “Orchard”.' });
    await notice.waitFor();
    await tree.row('Fix the fence').waitFor({ state: 'detached' });
    const task = (await api(seeded).get(`/api/v1/tasks/${seeded.tasks['Fix the fence']}`)).body.task;
    expect(task.tree_id).toBe(seeded.other);
    const apples = (await api(seeded).get(`/api/v1/trees/${seeded.other}`)).body.projects[0];
    expect(task.project_id).toBe(apples.id);
    await notice.getByRole('link', { name: 'Open it there' }).click();
    await page.waitForURL(`**/trees/${seeded.other}?task=${task.id}`);
    expect(await new TreePage(page).panel.getByLabel('Title', { exact: true }).inputValue()).toBe('Fix the fence');
  });

  it('completes a task with one click on its Done box, and Undo puts it back', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const id = seeded.tasks['Buy seeds']!;
    await api(seeded).patch(`/api/v1/tasks/${id}`, { status: 'open' });
    const tree = await openTree(page, seeded);
    const done = tree.row('Buy seeds').getByRole('checkbox', { name: 'Done' });
    expect(await done.isChecked()).toBe(false);
    await done.click();
    const notice = page.getByRole('status').filter({ hasText: '“Buy seeds” is done.' });
    await notice.waitFor();
    await expect.poll(async () => (await api(seeded).get(`/api/v1/tasks/${id}`)).body.task.status).toBe('done');
    expect(await done.isChecked()).toBe(true);
    await expectAccessible(page, 'done notice');
    await shot(page, 'done-undo-1280');
    await notice.getByRole('button', { name: 'Undo' }).click();
    await notice.waitFor({ state: 'detached' });
    // Back to what it was before, not just "not done".
    expect((await api(seeded).get(`/api/v1/tasks/${id}`)).body.task.status).toBe('open');
    expect(await done.isChecked()).toBe(false);

    // Ticked while its panel holds an edit: the panel follows the new status and keeps the edit.
    const panel = await tree.openTask('Buy seeds');
    await panel.field('Notes').fill('Beans');
    await done.click();
    await expect.poll(() => panel.field('Status').inputValue()).toBe('done');
    await panel.save();
    await panel.root.getByText('Saved').waitFor();
    expect((await api(seeded).get(`/api/v1/tasks/${id}`)).body.task).toMatchObject({ status: 'done', notes: 'Beans' });
  });

  it('puts the open task in the address, so a link opens it, and Escape closes it with focus back on its row', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const tree = await openTree(page, seeded);
    await tree.openTask('Buy seeds');
    await page.waitForURL(`**/trees/${seeded.tree}?task=${seeded.tasks['Buy seeds']}`);
    await page.reload();
    const panel = new TreePage(page).panel;
    expect(await panel.getByLabel('Title', { exact: true }).inputValue()).toBe('Buy seeds');
    await page.goto(`/trees/${seeded.tree}?task=${seeded.tasks['Fix the fence']}`);
    expect(await panel.getByLabel('Title', { exact: true }).inputValue()).toBe('Fix the fence');
    // Opened from its row, closed with Escape: the panel goes, the address forgets it, focus returns.
    await tree.row('Buy seeds').getByRole('button').click();
    await expect.poll(() => panel.getByLabel('Title', { exact: true }).inputValue()).toBe('Buy seeds');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(new URL(page.url()).search).toBe('');
    expect(await focusedText(page)).toContain('Buy seeds');
  });

  it('returns to the page asked for after signing in from a link', async () => {
    const seeded = await seed();
    const w = await openPage(s.browser, s.t.url);
    try {
      const target = `/trees/${seeded.tree}?task=${seeded.tasks['Fix the fence']}`;
      await w.page.goto(target);
      await w.page.waitForURL('**/signin?next=*');
      // The page asked for, wrapped once.
      expect(new URL(w.page.url()).searchParams.get('next')).toBe(target);
      await w.page.getByLabel('Email').fill(seeded.person.email);
      await w.page.getByLabel('Password').fill(PASSWORD);
      await w.page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await w.page.waitForURL(`**${target}`);
      const panel = new TreePage(w.page).panel;
      expect(await panel.getByLabel('Title', { exact: true }).inputValue()).toBe('Fix the fence');
      expect(w.pageErrors).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('asks before unsaved panel edits are lost: a link, Back, reload, another task, Escape', async () => {
    const seeded = await seed();
    const w = await openPage(s.browser, s.t.url);
    const { page } = w;
    // This page answers the questions itself: "Stay" (dismiss) unless told to leave.
    page.removeAllListeners('dialog');
    const asked: { type: string; message: string }[] = [];
    let leave = false;
    page.on('dialog', (dialog) => {
      asked.push({ type: dialog.type(), message: dialog.message() });
      void (leave ? dialog.accept() : dialog.dismiss());
    });
    try {
      const tree = await openTree(page, seeded);
      await page.goto('/trees');
      await new TreesPage(page).open('Garden');
      const panel = await tree.openTask('Buy seeds');
      const question = 'This task has changes that are not saved. Leave without saving them?';
      await panel.field('Notes').fill('Beans and peas');
      const stayed = async (how: string) => {
        await expect.poll(() => asked.length, { message: how }).toBeGreaterThan(0);
        const last = asked.pop()!;
        expect(asked, how).toEqual([]);
        expect(await panel.field('Notes').inputValue(), how).toBe('Beans and peas');
        expect(new URL(page.url()).pathname, how).toBe(`/trees/${seeded.tree}`);
        return last;
      };

      await page.getByRole('link', { name: 'All trees' }).click();
      expect(await stayed('← All trees')).toEqual({ type: 'confirm', message: question });
      await page.getByRole('navigation').getByRole('link', { name: 'Account' }).click();
      expect((await stayed('navigation link')).message).toBe(question);
      await page.goBack();
      expect((await stayed('Back')).message).toBe(question);
      void page.reload({ timeout: 5_000 }).catch(() => undefined);
      expect((await stayed('reload')).type).toBe('beforeunload');
      await tree.row('Fix the fence').getByRole('button').click();
      expect((await stayed('another task')).message).toBe(question);
      await page.keyboard.press('Escape');
      expect((await stayed('Escape')).message).toBe(question);
      await shot(page, 'unsaved-kept-1280');

      // Saved, nothing is asked; edited again and told to leave, it leaves.
      await panel.save();
      await panel.root.getByText('Saved').waitFor();
      await page.getByRole('link', { name: 'All trees' }).click();
      await page.waitForURL('**/trees');
      expect(asked).toEqual([]);
      await page.goBack();
      await new TreePage(page).drawing.waitFor();
      const again = await tree.openTask('Buy seeds');
      await again.field('Notes').fill('Only beans');
      leave = true;
      await page.getByRole('link', { name: 'All trees' }).click();
      await page.waitForURL('**/trees');
      expect(asked.map((a) => a.message)).toEqual([question]);
      expect((await api(seeded).get(`/api/v1/tasks/${seeded.tasks['Buy seeds']}`)).body.task.notes).toBe(
        'Beans and peas',
      );
      expect(w.pageErrors).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('opens dialogs on their first field, closes them with Escape, and gives focus back to what opened them', async () => {
    const seeded = await seed();
    const { page } = s.w;
    const tree = await openTree(page, seeded);
    await page.getByRole('button', { name: 'New task' }).click();
    expect(await focusedIs(page, 'dialog[open] input')).toBe(true);
    // What is typed goes to the title, and Enter saves it.
    await page.keyboard.type('Prune the roses');
    await page.keyboard.press('Enter');
    await tree.dialog.waitFor({ state: 'detached' });
    await tree.row('Prune the roses').waitFor();
    await page.keyboard.press('Escape'); // the new task's panel
    await tree.panel.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'New project' }).click();
    expect(await focusedIs(page, 'dialog[open] input')).toBe(true);
    await page.keyboard.press('Escape');
    await tree.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedText(page)).toBe('New project');

    await tree.projectName('Vegetables').click();
    expect(await focusedIs(page, 'dialog[open] input')).toBe(true);
    await page.keyboard.press('Escape');
    await tree.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedText(page)).toBe('Vegetables');

    // From the drawing too: a leaf's panel and a project's editor give focus back to their node.
    const leaf = `[data-task-id="${seeded.tasks['Fix the fence']}"]`;
    await page.locator(leaf).focus();
    await page.keyboard.press('Enter');
    await tree.panel.waitFor();
    await page.keyboard.press('Escape');
    await tree.panel.waitFor({ state: 'detached' });
    await expect.poll(() => focusedIs(page, leaf)).toBe(true);
    const knot = `[data-project-id="${seeded.veg}"]`;
    await page.locator(knot).focus();
    await page.keyboard.press('Enter');
    await tree.dialog.waitFor();
    await page.keyboard.press('Escape');
    await tree.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedIs(page, knot)).toBe(true);

    const trees = await TreesPage.open(page);
    await trees.newTree.click();
    expect(await focusedIs(page, 'dialog[open] input')).toBe(true);
    await page.keyboard.press('Escape');
    await trees.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedText(page)).toBe('New tree');
  });

  it('gives a viewer of a shared tree none of these controls', async () => {
    const seeded = await seed();
    await api(seeded).patch(`/api/v1/tasks/${seeded.tasks['Fix the fence']}`, { status: 'archived' });
    const viewer = await makeUser(s.t.url, s.t.app);
    const invited = await api(seeded).post(`/api/v1/trees/${seeded.tree}/members`, {
      email: viewer.email,
      role: 'viewer',
    });
    expect(invited.status).toBe(201);
    const accepted = await viewer.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
      token: inviteToken(invited),
    });
    expect(accepted.status).toBe(200);
    const { page } = s.w;
    const tree = await openTree(page, { ...seeded, person: viewer });
    await tree.row('Buy seeds').waitFor();
    expect(await tree.listView.getByRole('checkbox').count()).toBe(0);
    expect(await tree.projectName('Vegetables').count()).toBe(0);
    await tree.listView.getByText('Vegetables', { exact: true }).waitFor();
    await tree.project(seeded.veg).focus();
    await page.keyboard.press('Enter');
    await tree.search('fence');
    await page.getByText('1 task found').waitFor();
    await page.locator('.archived-hits').getByText('Fix the fence').waitFor();
    expect(await page.getByRole('button', { name: 'Restore' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Archived' }).click();
    await page.getByRole('tabpanel').getByText('Fix the fence').waitFor();
    expect(await page.getByRole('button', { name: 'Restore' }).count()).toBe(0);
    expect(await tree.dialog.count()).toBe(0); // the project node's Enter opened nothing
    const panel = await (await openTree(page, { ...seeded, person: viewer })).openTask('Buy seeds');
    expect(await panel.field('Tree').count()).toBe(0);
    await expectAccessible(page, 'tree as a viewer');
  });

  it('speaks Russian and fits a phone: Done and Undo, the archive, the project editor', async () => {
    const seeded = await seed('ru');
    const { page } = s.w;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await api(seeded).patch(`/api/v1/tasks/${seeded.tasks['Fix the fence']}`, { status: 'archived' });
      const tree = await openTree(page, seeded);
      await page.getByRole('button', { name: 'Новая задача' }).waitFor();
      await tree.row('Buy seeds').getByRole('checkbox', { name: 'Готово' }).click();
      const notice = page.getByRole('status').filter({ hasText: 'Задача «Buy seeds» выполнена.' });
      await notice.waitFor();
      const box = (await notice.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await noSidewaysScroll(page)).toBe(true);
      await notice.scrollIntoViewIfNeeded();
      await shot(page, 'done-undo-390-ru');
      await notice.getByRole('button', { name: 'Отменить' }).click();
      await notice.waitFor({ state: 'detached' });
      expect((await api(seeded).get(`/api/v1/tasks/${seeded.tasks['Buy seeds']}`)).body.task.status).toBe('todo');

      await page.getByRole('tab', { name: 'Архив' }).click();
      await page.getByRole('tabpanel').getByText('Fix the fence').waitFor();
      await page.getByRole('tabpanel').getByRole('button', { name: 'Восстановить' }).scrollIntoViewIfNeeded();
      await expectAccessible(page, 'archive in Russian');
      await shot(page, 'archived-tab-390-ru');
      await page.getByRole('tab', { name: 'Задачи' }).click();

      // The unsaved-edits question in Russian (this page's watcher answers "Stay").
      const panel = await tree.openTask('Buy seeds');
      await panel.root.getByLabel('Заметки', { exact: true }).fill('Фасоль');
      await panel.root.getByLabel('Дерево', { exact: true }).scrollIntoViewIfNeeded();
      await shot(page, 'panel-tree-390-ru');
      s.w.dialogs.length = 0;
      await page.keyboard.press('Escape');
      await expect.poll(() => s.w.dialogs).toEqual(['В задаче есть несохранённые изменения. Уйти, не сохранив их?']);
      await panel.root.getByLabel('Заметки', { exact: true }).fill('');
      await page.keyboard.press('Escape');
      await panel.root.waitFor({ state: 'detached' });

      await tree.projectName('Vegetables').click();
      const dialog = page.getByRole('dialog', { name: 'Изменить проект' });
      await dialog.getByLabel('Имя').waitFor();
      await dialog.getByRole('button', { name: 'Удалить' }).click();
      const confirm = page.getByRole('dialog', { name: 'Удалить проект?' });
      await confirm.getByText('подпроекты — 1, задачи — 2').waitFor();
      await expectAccessible(page, 'project deletion in Russian');
      await shot(page, 'project-delete-390-ru');
      expect(await noSidewaysScroll(page)).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
