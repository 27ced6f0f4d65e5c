import sharp from 'sharp';
import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { browserDescribe, expectAccessible, shot } from './support/browser.js';
import { PASSWORD, uniqueEmail, useBrowserApp } from './support/session.js';
import { RegisterPage } from './pages/auth.js';
import { TreesPage } from './pages/trees.js';
import { TreePage } from './pages/tree.js';
import { AgentsPage } from './pages/agents.js';
import { AccountPage } from './pages/account.js';

browserDescribe.each(databases)('a person in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);
  const email = uniqueEmail('walk');
  const requested: string[] = [];
  let treeId = '';

  it('shows the signed-out pages under a strict CSP, accessible', async () => {
    const { page } = s.w;
    page.on('request', (request) => requested.push(request.url()));
    const answer = await page.goto('/');
    expect(answer!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(answer!.headers()['x-frame-options']).toBe('DENY');
    await page.getByRole('heading', { name: 'Task Tree', level: 1 }).waitFor();
    for (const [path, heading] of [
      ['/about', 'Task Tree'],
      ['/signin', 'Welcome back'],
      ['/register', 'Plant your first tree'],
      ['/forgot', 'Reset your password'],
      ['/reset?token=abc', 'Choose a new password'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expectAccessible(page, path);
      await shot(page, `signed-out${path.replace(/[/?=]/g, '-')}`);
    }
    // The reset token is read once and leaves the address bar.
    expect(new URL(page.url()).search).toBe('');
  });

  it('signs up and lands on an empty list of trees', async () => {
    const trees = await (await RegisterPage.open(s.w.page)).register('Ada Gardener', email, PASSWORD);
    await trees.page.getByText('No trees yet').waitFor();
    for (const link of ['Trees', 'Agent settings', 'Account', 'Billing'])
      await trees.page.getByRole('navigation').getByRole('link', { name: link, exact: true }).waitFor();
    await expectAccessible(trees.page, 'trees (empty)');
  });

  it('creates, renames, restyles and deletes trees', async () => {
    const trees = new TreesPage(s.w.page);
    await trees.create('Scratch', 'L-system');
    await trees.edit('Scratch', { name: 'Scratch renamed', style: 'Space colonization' });
    await expect.poll(() => trees.row('Scratch renamed').textContent()).toContain('Space colonization');
    await trees.remove('Scratch renamed');
    await trees.create('Garden', 'Tidy fan');
    await expectAccessible(trees.page, 'trees');
    await shot(trees.page, 'trees');
  });

  it('adds projects and tasks and sees them drawn in every style', async () => {
    const tree = await new TreesPage(s.w.page).open('Garden');
    treeId = new URL(s.w.page.url()).pathname.split('/').pop()!;
    await tree.newProject('Vegetables');
    await tree.newProject('Beds', 'Vegetables');
    await tree.newTask('Water the tomatoes', 'Vegetables / Beds');
    await tree.newTask('Buy seeds', 'Vegetables');
    await tree.newTask('Fix the fence');
    await expect.poll(() => tree.leaves().count()).toBe(3);
    expect(await tree.drawing.locator('[data-project-id]').count()).toBe(2);
    for (const style of ['Space colonization', 'L-system', 'Tidy fan']) {
      await tree.setStyle(style);
      await expect.poll(() => tree.leaves().count(), { message: style }).toBe(3);
    }
    // Keyboard: a leaf is focusable and Enter opens its panel.
    await tree.leaves().first().focus();
    await s.w.page.keyboard.press('Enter');
    await tree.panel.waitFor();
    await expectAccessible(s.w.page, 'tree with panel');
    await shot(s.w.page, 'tree');
  });

  it('edits every field of a task in its panel', async () => {
    const tree = new TreePage(s.w.page);
    const panel = await tree.openTask('Buy seeds');
    await panel.field('Title').fill('Buy heirloom seeds');
    await panel.field('Status').selectOption({ label: 'Done' });
    await panel.field('Deadline').fill('2026-12-24');
    await panel.field('Text').fill('Ask at the market');
    await panel.field('Notes').fill('Tomatoes, beans');
    await panel.field('Project').selectOption({ label: 'Vegetables / Beds' });
    await panel.save();
    await panel.root.getByText('Saved').waitFor();
    await s.w.page.reload();
    const again = await new TreePage(s.w.page).openTask('Buy heirloom seeds');
    expect(await again.field('Status').inputValue()).toBe('done');
    expect(await again.field('Deadline').inputValue()).toBe('2026-12-24');
    expect(await again.field('Notes').inputValue()).toBe('Tomatoes, beans');
    // The list view shows the deadline as a calendar day in the page's language.
    await tree.listView.getByText('Dec 24, 2026').waitFor();
  });

  it('highlights the leaves that a search finds', async () => {
    const tree = new TreePage(s.w.page);
    await tree.search('tomatoes');
    await s.w.page.getByText(/task(s)? found/).waitFor();
    await expect.poll(() => tree.listView.locator('.hit').count()).toBe(2); // title of one, notes of the other
    // The list view shows only the matches until the whole tree is asked back.
    expect(await tree.listView.locator('.outline-task').count()).toBe(2);
    await s.w.page.getByRole('button', { name: 'Show the whole tree' }).click();
  });

  it('uploads a photo with a progress bar and shows its thumbnail', async () => {
    const tree = new TreePage(s.w.page);
    const panel = await tree.openTask('Fix the fence');
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 60, g: 140, b: 70 } } })
      .jpeg()
      .toBuffer();
    await panel.upload('fence.jpg', 'image/jpeg', jpeg);
    const thumb = panel.root.getByRole('img', { name: 'Photo fence.jpg' });
    await thumb.waitFor();
    await expect.poll(() => thumb.evaluate((img: unknown) => (img as { naturalWidth: number }).naturalWidth)).toBe(64);
    await shot(s.w.page, 'task-panel-photo');
  });

  it('renders a hostile title as text', async () => {
    const tree = new TreePage(s.w.page);
    const hostile = '<img src=x onerror=alert(1)>';
    await tree.newTask(hostile);
    await tree.listView.getByText(hostile, { exact: true }).waitFor();
    expect(s.w.dialogs).toEqual([]);
    expect(await s.w.page.locator('img[src="x"]').count()).toBe(0);
  });

  it('creates a token, shows its value once and revokes it', async () => {
    const agents = await AgentsPage.open(s.w.page);
    await expectAccessible(s.w.page, 'agents');
    const value = await agents.createToken('Claude');
    expect(value).toMatch(/^ttp_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(s.w.page, 'agents with a new token');
    await shot(s.w.page, 'agents-token');
    const me = await fetch(`${s.t.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${value}` } });
    expect(me.status).toBe(200);
    await s.w.page.reload();
    await agents.tokenRow('Claude').waitFor();
    expect(await agents.tokenValue.count()).toBe(0);
    expect(await s.w.page.content()).not.toContain(value);
    await agents.revoke('Claude');
    await agents.tokenRow('Claude').getByText('Revoked').waitFor();
    expect((await fetch(`${s.t.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${value}` } })).status).toBe(
      401,
    );
    await s.w.page.getByRole('heading', { name: 'Agent call journal' }).waitFor();
    await s.w.page.getByRole('button', { name: 'Refresh' }).click();
    await s.w.page.getByRole('cell', { name: 'GET /auth/me' }).first().waitFor();
  });

  it('shows billing and account pages, accessible', async () => {
    await s.w.page.getByRole('link', { name: 'Billing' }).click();
    await s.w.page.getByText('Billing is not available yet').waitFor();
    await expectAccessible(s.w.page, 'billing');
    await shot(s.w.page, 'billing');
    await AccountPage.open(s.w.page);
    await expectAccessible(s.w.page, 'account');
    await shot(s.w.page, 'account');
    await s.w.page.goto('/no/such/page');
    await s.w.page.getByRole('heading', { name: 'Nothing grows here' }).waitFor();
    await expectAccessible(s.w.page, 'not found');
  });

  it('switches to Russian, with dates in the chosen time zone', async () => {
    const account = await AccountPage.open(s.w.page);
    await account.timezone.selectOption('Asia/Tokyo');
    await account.language.selectOption({ label: 'Русский' });
    await account.save.click();
    await s.w.page.getByRole('link', { name: 'Деревья' }).waitFor();
    expect(await s.w.page.evaluate('document.documentElement.lang')).toBe('ru');
    await s.w.page.reload();
    await s.w.page.getByRole('heading', { name: 'Профиль', level: 1 }).waitFor();
    // Times are shown on the person's clock (Tokyo), not the browser's (Berlin). The card shows the
    // tree's latest activity, which a task edited a minute after the tree makes differ from updated_at.
    await s.w.page.goto('/trees');
    const garden = (
      (await s.w.page.evaluate("fetch('/api/v1/trees').then((r) => r.json())")) as {
        items: { name: string; last_activity_at: string }[];
      }
    ).items.find((x) => x.name === 'Garden')!;
    const tokyo = new Intl.DateTimeFormat('ru', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Asia/Tokyo',
    }).format(new Date(garden.last_activity_at));
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    await expect
      .poll(async () => flat((await s.w.page.locator('.tree-card-meta').first().textContent()) ?? ''))
      .toContain(flat(tokyo));
    await s.w.page.goto(`/trees/${treeId}`);
    await s.w.page.getByRole('button', { name: 'Новая задача' }).waitFor();
    await expectAccessible(s.w.page, 'tree in Russian');
    await shot(s.w.page, 'tree-ru');
    const account2 = await AccountPage.openAs(s.w.page, 'Профиль');
    await account2.language.selectOption({ label: 'English' });
    await account2.page.getByRole('button', { name: 'Сохранить' }).click();
    await s.w.page.getByRole('link', { name: 'Trees' }).waitFor();
  });

  it('keeps every credential out of web storage and URLs', async () => {
    const stored = await s.w.page.evaluate('({ local: localStorage.length, session: sessionStorage.length })');
    expect(stored).toEqual({ local: 0, session: 0 });
    const cookies = await s.w.context.cookies();
    const session = cookies.find((c) => c.name === 'tt_session')!;
    expect(session.httpOnly).toBe(true);
    for (const url of requested) {
      expect(url).not.toContain(session.value);
      expect(url).not.toMatch(/csrf|ttp_/i);
    }
    expect(s.w.cspViolations).toEqual([]);
    expect(s.w.pageErrors).toEqual([]);
  });
});
