import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { browserDescribe, expectAccessible, shot } from './support/browser.js';
import { PASSWORD, uniqueEmail, useBrowserApp } from './support/session.js';
import { RegisterPage } from './pages/auth.js';
import { TreePage, type TaskPanel } from './pages/tree.js';

// Low enough to reach with a burst at the end, high enough for the walk before it.
const RATE = 60;

browserDescribe.each(databases)('bad input in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind, () => ({ RATE_LIMIT_PER_MINUTE: String(RATE) }));
  let panel: TaskPanel;

  it('sets up a task to edit', async () => {
    const trees = await (await RegisterPage.open(s.w.page)).register('Bo', uniqueEmail('bad'), PASSWORD);
    await trees.create('Orchard');
    const tree = await trees.open('Orchard');
    await tree.newTask('Prune the apple tree');
    panel = await new TreePage(s.w.page).openTask('Prune the apple tree');
  });

  it('keeps what was typed when the session dies mid-edit, and saves it after signing in again', async () => {
    await panel.field('Title').fill('Prune the pear tree too');
    await s.w.context.clearCookies(); // the session is gone, as after a reset elsewhere or expiry
    await panel.save();
    const dialog = s.w.page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    await expectAccessible(s.w.page, 'session expired dialog');
    await shot(s.w.page, 'session-expired');
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await panel.field('Title').inputValue()).toBe('Prune the pear tree too');
    await panel.save();
    await panel.root.getByText('Saved').waitFor();
    await new TreePage(s.w.page).listView.getByRole('button', { name: 'Prune the pear tree too' }).waitFor();
  });

  it('says the network is gone and keeps the text until it is back', async () => {
    await panel.field('Notes').fill('Use the long-handled loppers');
    await s.w.context.setOffline(true);
    await panel.save();
    await panel.root.getByRole('alert').filter({ hasText: 'cannot be reached' }).waitFor();
    expect(await panel.field('Notes').inputValue()).toBe('Use the long-handled loppers');
    await s.w.context.setOffline(false);
    await panel.save();
    await panel.root.getByText('Saved').waitFor();
  });

  it('refuses a file over 25 MiB in words', async () => {
    // One byte over CONTRACT §12's 26,214,400, from a file on disk (a buffer this big crawls through CDP).
    const dir = mkdtempSync(join(tmpdir(), 'tasktree-e2e-'));
    const path = join(dir, 'huge.bin');
    writeFileSync(path, Buffer.alloc(25 * 1024 * 1024 + 1, 1));
    await panel.root.getByLabel('Upload a file').setInputFiles(path);
    await panel.root.getByRole('alert').filter({ hasText: 'too large' }).waitFor();
    expect(await panel.root.getByText('huge.bin').count()).toBe(0);
  });

  it('says when to try again after a 429, keeping the text', async () => {
    await panel.field('Text').fill('Before the buds open');
    const cookie = (await s.w.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    let status = 0;
    for (let i = 0; i < RATE + 5 && status !== 429; i++)
      status = (await fetch(`${s.t.url}/api/v1/auth/me`, { headers: { cookie } })).status;
    expect(status).toBe(429);
    await panel.save();
    await panel.root
      .getByRole('alert')
      .filter({ hasText: /Too many requests.*Try again in \d+ seconds/ })
      .waitFor();
    expect(await panel.field('Text').inputValue()).toBe('Before the buds open');
    expect(s.w.pageErrors).toEqual([]);
  });
});
