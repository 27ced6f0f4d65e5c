import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
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
});
