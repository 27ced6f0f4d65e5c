import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { browserDescribe, expectAccessible } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { TreePage } from './pages/tree.js';

// A big project in the list view: its first 50 rows, then "Show all" (a 10,000-task tree took
// twice as long to show with every row built); the drawing still has every leaf.
browserDescribe.each(databases)('a big tree in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);

  it("lists a big project's first rows, shows the rest on request with focus on the next one, and draws every leaf", async () => {
    const person = await makeUser(s.t.url, s.t.app, { plan: 'sprout' });
    const tree = (await person.browser.post('/api/v1/trees', { name: 'Orchard' })).body.tree;
    const project = (await person.browser.post('/api/v1/projects', { tree_id: tree.id, name: 'Apples' })).body.project;
    for (let i = 1; i <= 60; i++) {
      const created = await person.browser.post('/api/v1/tasks', {
        tree_id: tree.id,
        project_id: project.id,
        title: `Pick row ${String(i).padStart(2, '0')}`,
      });
      expect(created.status).toBe(201);
    }
    expect((await person.browser.post('/api/v1/tasks', { tree_id: tree.id, title: 'Mend the gate' })).status).toBe(201);
    await s.w.context.addCookies([
      { name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url },
    ]);

    await s.w.page.goto(`/trees/${tree.id}`);
    const page = new TreePage(s.w.page);
    await expect.poll(() => page.leaves().count()).toBe(61);
    const rows = page.listView.locator('.outline-task');
    await expect.poll(() => rows.count()).toBe(51); // 50 of Apples, and the loose one
    const more = page.listView.getByRole('button', { name: 'Show all 60 tasks' });
    await expectAccessible(s.w.page, 'big tree');
    await more.click();
    await expect.poll(() => rows.count()).toBe(61);
    expect(await more.count()).toBe(0);
    await expect
      .poll(() => s.w.page.evaluate('document.activeElement && document.activeElement.textContent'))
      .toContain('Pick row 51');
  });

  it('lists every row of a big project when one of its tasks is selected', async () => {
    const page = new TreePage(s.w.page);
    await s.w.page.reload();
    await expect.poll(() => page.listView.locator('.outline-task').count()).toBe(51);
    await page.leaves().nth(58).click();
    await page.panel.waitFor();
    await expect.poll(() => page.listView.locator('.outline-task').count()).toBe(61);
  });
});
