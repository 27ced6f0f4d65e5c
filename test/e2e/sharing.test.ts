import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { databases } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { browserDescribe, expectAccessible, openPage, shot, type Watched } from './support/browser.js';
import { PASSWORD, uniqueEmail, useBrowserApp } from './support/session.js';
import { RegisterPage, SignInPage } from './pages/auth.js';
import { TreePage } from './pages/tree.js';
import { TreesPage } from './pages/trees.js';
import { InvitationsCard, SharingPage } from './pages/sharing.js';
import { InvitePage, localPath, VerifyBanner } from './pages/verify.js';
import { verifyEmailByOperator } from '../../src/domain/accounts/email-verification.js';

browserDescribe.each(databases)('a tree shared in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);
  const ownerEmail = uniqueEmail('owner');
  const editorEmail = uniqueEmail('editor');
  const viewerEmail = uniqueEmail('viewer');
  let treeId = '';
  let editorLink = '';
  let editor: Watched;
  let viewer: Watched;
  const owner = () => s.w.page;
  let api: Client; // the owner over HTTP, for seeding

  async function historyTab(page: Page) {
    await page.getByRole('tab', { name: 'History' }).click();
    return page.getByRole('tabpanel').locator('ol.history > li');
  }

  it('points the owner without Grove to Billing', async () => {
    // The owner and the tree come through the API: 52 tasks make the history longer than one page.
    api = new Client(s.t.url);
    await api.get('/api/v1/auth/me');
    expect(
      (
        await api.post('/api/v1/auth/register', {
          email: ownerEmail,
          password: PASSWORD,
          name: 'Ada',
          timezone: 'Asia/Tokyo',
        })
      ).status,
    ).toBe(201);
    const tree = await makeTree(api, { name: 'Shared garden' });
    treeId = tree.id;
    await makeTask(api, treeId, { title: 'Water the beans' });
    for (let i = 1; i <= 51; i += 1) await makeTask(api, treeId, { title: `Seedling ${i}` });

    await (await SignInPage.open(owner())).signIn(ownerEmail, PASSWORD);
    const row = owner()
      .getByRole('listitem')
      .filter({ has: owner().getByRole('link', { name: 'Shared garden', exact: true }) });
    await row.getByRole('link', { name: 'Share', exact: true }).click();
    await owner().getByText('Sharing trees needs the Grove plan.').waitFor();
    await owner().getByRole('main').getByRole('link', { name: 'See the plans on the Billing page' }).waitFor();
    expect(await owner().getByRole('button', { name: 'Invite' }).count()).toBe(0);
    await expectAccessible(owner(), 'sharing without Grove');
    await shot(owner(), 'sharing-needs-grove');
  });

  it('lets the owner on Grove invite, with a role and an end of access, and change a role', async () => {
    await setUserPlan(s.t.app.deps, ownerEmail, 'grove', null);
    const sharing = await SharingPage.open(owner(), treeId);
    await sharing.inviteAs(editorEmail, 'Editor');
    // The invitation's one-time link, shown to the owner once with a copy button (CONTRACT §19).
    editorLink = await sharing.inviteLink();
    expect(localPath(editorLink)).toMatch(/^\/invite\?token=[A-Za-z0-9_-]{43}&id=mbr_/);
    await expectAccessible(owner(), 'sharing with the invitation link');
    await shot(owner(), 'sharing-invite-link');
    await sharing.inviteAs(viewerEmail, 'Editor', '2030-01-31T18:00');
    expect(await sharing.inviteLink()).not.toBe(editorLink);
    await sharing.changeRole(viewerEmail, 'Viewer');
    await expect
      .poll(
        async () =>
          (
            await s.t.app.deps.db
              .selectFrom('members')
              .select('role')
              .where('email', '=', viewerEmail)
              .executeTakeFirstOrThrow()
          ).role,
      )
      .toBe('viewer');
    await sharing.row(editorEmail).getByText('Invited').waitFor();
    // The end of access is typed and shown on the owner's clock (Tokyo), not the browser's (Berlin).
    await sharing.row(viewerEmail).getByText('Jan 31, 2030, 6:00 PM').waitFor();
    const stored = await s.t.app.deps.db
      .selectFrom('members')
      .select('expires_at')
      .where('email', '=', viewerEmail)
      .executeTakeFirstOrThrow();
    expect(new Date(stored.expires_at!).toISOString()).toBe('2030-01-31T09:00:00.000Z');
    await expectAccessible(owner(), 'sharing');
    await shot(owner(), 'sharing');
  });

  it('joins the invitee through the invitation link (signing up on the way); the tree comes marked with the role, and the editor edits a task', async () => {
    editor = await openPage(s.browser, s.t.url);
    // Signed out, the link leads to sign in, then to create account, and back to the invitation.
    await editor.page.goto(localPath(editorLink));
    await editor.page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await editor.page.getByRole('main').getByRole('link', { name: 'Create account' }).click();
    const register = new RegisterPage(editor.page);
    await register.name.fill('Bo');
    await register.email.fill(editorEmail);
    await register.password.fill(PASSWORD);
    await register.submit.click();
    const invite = new InvitePage(editor.page);
    await invite.heading.waitFor();
    await expect.poll(() => new URL(editor.page.url()).search).toBe(''); // the token leaves the address bar
    // An unverified account: the banner asks to verify, and the invitation is not offered by email.
    await new VerifyBanner(editor.page).send.waitFor();
    await expectAccessible(editor.page, 'invitation link');
    await shot(editor.page, 'invitation-link');
    expect(await invite.acceptInvitation()).toBe('You joined the tree.');
    await editor.page.getByRole('link', { name: 'Open the tree' }).waitFor();
    const trees = await TreesPage.open(editor.page);
    expect(await new InvitationsCard(trees.page).root.count()).toBe(0);
    await trees.row('Shared garden').getByText('Shared with you · editor').waitFor();
    expect(await trees.row('Shared garden').getByRole('button', { name: 'Delete' }).count()).toBe(0);

    const tree = await trees.open('Shared garden');
    const panel = await tree.openTask('Water the beans');
    await panel.field('Title').fill('Water the beans twice');
    await panel.save();
    await panel.root.getByText('Saved').waitFor();
    // The owner goes by their name to a member, not as "The owner".
    await panel.root.getByRole('checkbox', { name: 'Ada', exact: true }).waitFor();
    expect(await panel.root.getByRole('checkbox', { name: 'The owner' }).count()).toBe(0);
    await panel.root.getByRole('checkbox', { name: 'Bo' }).check();
    await expect
      .poll(async () => (await s.t.app.deps.db.selectFrom('task_assignees').select('user_id').execute()).length)
      .toBe(1);
    await panel.root.getByLabel('Add a comment').fill('Done by noon');
    await panel.root.getByRole('button', { name: 'Comment' }).click();
    await panel.root.getByText('Done by noon').waitFor();
    await panel.root.getByRole('button', { name: 'Edit' }).click();
    await panel.root.getByLabel('Edit your comment').fill('Done by noon, with the can');
    await panel.root.getByRole('button', { name: 'Save' }).last().click();
    await panel.root.getByText('Done by noon, with the can').waitFor();
    await expectAccessible(editor.page, 'tree with panel, as editor');
    await shot(editor.page, 'editor-panel');
  });

  it('gives a viewer no control it cannot use', async () => {
    viewer = await openPage(s.browser, s.t.url);
    const trees = await (await RegisterPage.open(viewer.page)).register('Cy', viewerEmail, PASSWORD);
    // Invitations to an address reach the account once it is verified: this service sends no
    // mail, so the banner says so and the operator vouches for the address instead.
    expect(await new VerifyBanner(viewer.page).request()).toContain('cannot send mail');
    expect(await new InvitationsCard(trees.page).root.count()).toBe(0);
    await verifyEmailByOperator(s.t.app.deps, viewerEmail);
    // A second invitation, declined: it leaves the card and never becomes a tree on the list.
    const spare = await makeTree(api, { name: 'Spare bed' });
    expect((await api.post(`/api/v1/trees/${spare.id}/members`, { email: viewerEmail, role: 'editor' })).status).toBe(
      201,
    );
    await trees.page.reload();
    expect(await new VerifyBanner(viewer.page).root.count()).toBe(0);
    const invitations = new InvitationsCard(trees.page);
    await invitations.item('Shared garden').getByText('as Viewer').waitFor();
    await expectAccessible(viewer.page, 'trees with invitations');
    await shot(viewer.page, 'invitation');
    await invitations.item('Spare bed').getByRole('button', { name: 'Decline' }).click();
    await invitations.item('Spare bed').waitFor({ state: 'detached' });
    await invitations.accept('Shared garden');
    await trees.row('Shared garden').getByText('Shared with you · viewer').waitFor();
    expect(await trees.page.getByRole('link', { name: 'Spare bed' }).count()).toBe(0);
    const tree = await trees.open('Shared garden');
    for (const name of ['New task', 'New project', 'Import CSV'])
      expect(await viewer.page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await viewer.page.getByRole('link', { name: 'Share', exact: true }).count()).toBe(0);
    const panel = await tree.openTask('Water the beans twice');
    await panel.root.getByText('Done by noon, with the can').waitFor();
    await panel.root.getByText('You can view this task').waitFor();
    for (const name of ['Save', 'Delete', 'Edit', 'Comment'])
      expect(await panel.root.getByRole('button', { name }).count(), name).toBe(0);
    for (const label of ['Upload a file', 'Add a comment'])
      expect(await panel.root.getByLabel(label).count(), label).toBe(0);
    expect(await panel.root.getByRole('checkbox').count()).toBe(0);
    expect(await panel.field('Title').isDisabled()).toBe(true);
    // Members go by name to other members, not by email.
    const assignees = panel.root.getByRole('region', { name: 'Assignees' });
    await assignees.getByText('Bo', { exact: true }).waitFor();
    expect(await assignees.getByText(editorEmail).count()).toBe(0);
    expect(await viewer.page.getByLabel('Write a message').count()).toBe(0);
    await expectAccessible(viewer.page, 'tree with panel, as viewer');
    await shot(viewer.page, 'viewer-panel');
  });

  it('shows the owner the history in words, newest first, and more on "Load more"; the owner deletes a comment and posts a message', async () => {
    const tree = new TreePage(owner());
    await owner().goto(`/trees/${treeId}`);
    await tree.drawing.waitFor();
    const entries = await historyTab(owner());
    await expect.poll(() => entries.count()).toBe(50);
    // Newest first: the viewer joining came after everything the editor did.
    expect(await entries.first().textContent()).toContain('Cy joined the tree');
    await entries.filter({ hasText: 'Bo edited a comment' }).waitFor();
    await entries.filter({ hasText: `Bo renamed the task “Water the beans” to “Water the beans twice”` }).waitFor();
    await owner().getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => entries.count()).toBeGreaterThan(50);
    await entries.filter({ hasText: 'Ada planted this tree' }).waitFor();
    await expectAccessible(owner(), 'history');
    await shot(owner(), 'history');

    const panel = await tree.openTask('Water the beans twice');
    await panel.root.getByRole('checkbox', { name: 'Bo', exact: true }).waitFor();
    await panel.root.getByRole('button', { name: 'Delete' }).last().click();
    await owner().getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => panel.root.getByText('Done by noon, with the can').count()).toBe(0);

    await owner().getByRole('tab', { name: 'Messages' }).click();
    await owner().getByLabel('Write a message').fill('Beans are in!');
    await owner().getByRole('button', { name: 'Send' }).click();
    await owner().getByRole('tabpanel').getByText('Beans are in!').waitFor();
    await expectAccessible(owner(), 'messages');
  });

  it('lists every bad CSV row in a dry run, then a good file imports', async () => {
    const tree = new TreePage(owner());
    await owner().getByRole('button', { name: 'Import CSV' }).click();
    const dialog = owner().getByRole('dialog');
    const bad = 'title,status,project\nPick beans,todo,Harvest\n,todo,\nDry seeds,someday,\n';
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await dialog.getByText('2 rows need fixing before anything is imported:').waitFor();
    const rows = dialog.getByRole('table').getByRole('row');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(1).textContent()).toMatch(/^3title/);
    expect(await rows.nth(2).textContent()).toMatch(/^4status/);
    await expectAccessible(owner(), 'CSV bad rows');
    await shot(owner(), 'csv-bad-rows');
    expect(await tree.listView.getByText('Pick beans').count()).toBe(0);

    const good = 'title,status,project\nPick beans,todo,Harvest\nDry seeds,open,Harvest/Store\n';
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await dialog.getByText('Ready: 2 tasks and 2 new projects.').waitFor();
    await shot(owner(), 'csv-preview');
    expect(await tree.listView.getByText('Pick beans').count()).toBe(0); // the dry run wrote nothing
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('Imported 2 tasks and 2 projects.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await tree.listView.getByText('Pick beans').waitFor();
    await tree.listView.getByText('Dry seeds').waitFor();
  });

  it('revokes a member; the tree is gone from their page at the next load', async () => {
    const sharing = await SharingPage.open(owner(), treeId);
    // The owner's sharing table names each person, the invited email beside the name.
    expect(await sharing.row(editorEmail).getByRole('cell').first().textContent()).toBe(`Bo · ${editorEmail}`);
    expect(await sharing.row(viewerEmail).getByRole('cell').first().textContent()).toBe(`Cy · ${viewerEmail}`);
    await sharing.revoke(editorEmail);
    await shot(owner(), 'sharing-revoked');
    await editor.page.goto('/trees');
    await editor.page.getByText('No trees yet').waitFor();
    expect(await editor.page.getByRole('link', { name: 'Shared garden' }).count()).toBe(0);
    await editor.page.goto(`/trees/${treeId}`);
    await editor.page.getByText('This no longer exists, or you cannot see it.').waitFor();
  });

  it('never trips the CSP nor throws, for any of the three people', async () => {
    for (const w of [s.w, editor, viewer]) {
      expect(w.cspViolations).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      expect(w.dialogs).toEqual([]);
    }
  });
});
