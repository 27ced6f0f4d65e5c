import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { browserDescribe } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { TreesPage } from './pages/trees.js';

browserDescribe.each(databases)('long lists in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);

  it('shows every tree, past the 200 of one page', async () => {
    // Seeded and signed in through the API; the browser gets the same session cookie.
    const person = await makeUser(s.t.url, s.t.app, { plan: 'grove' });
    const names = Array.from({ length: 205 }, (_, i) => `Tree ${String(i + 1).padStart(3, '0')}`);
    for (const name of names) expect((await person.browser.post('/api/v1/trees', { name })).status).toBe(201);
    await s.w.context.addCookies([
      { name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url },
    ]);
    const trees = await TreesPage.open(s.w.page);
    await trees.row('Tree 205').waitFor();
    expect(await s.w.page.locator('.tree-card').count()).toBe(205);
  });

  it('dates a tree by its latest activity: a task changed today moves the tree\'s "Updated"', async () => {
    const person = await makeUser(s.t.url, s.t.app, { plan: 'sprout' });
    const tree = await makeTree(person.browser, { name: 'Orchard' });
    // The tree itself last changed in 2020; a task in it changes now.
    const old = '2020-06-15T12:00:00.000Z';
    await s.t.app.deps.db.updateTable('trees').set({ updated_at: old }).where('id', '=', tree.id).execute();
    await s.t.app.deps.db.updateTable('history').set({ at: old }).where('tree_id', '=', tree.id).execute();
    await makeTask(person.browser, tree.id, { title: 'Prune' });
    await s.w.context.addCookies([
      { name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url },
    ]);
    const trees = await TreesPage.open(s.w.page);
    const meta = trees.row('Orchard').getByText(/Updated /);
    await meta.waitFor();
    expect(await meta.textContent()).toContain(String(new Date().getUTCFullYear()));
    expect(await meta.textContent()).not.toContain('2020');
  });
});
