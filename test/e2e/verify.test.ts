import { afterAll, beforeAll, expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeTree } from '../helpers/data.js';
import { startFakeSmtp, waitForMail } from '../helpers/fake-smtp.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { browserDescribe, expectAccessible, openPage, shot } from './support/browser.js';
import { PASSWORD, uniqueEmail, useBrowserApp } from './support/session.js';
import { RegisterPage, SignInPage } from './pages/auth.js';
import { InvitationsCard } from './pages/sharing.js';
import { InvitePage, localPath, VerifyBanner } from './pages/verify.js';

/** Issue 30 point 6 in the browser: the banner, the mailed /verify link and an invitation's /invite link. */
browserDescribe.each(databases)('email verification and invitation links in the browser (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => smtp.close());
  const s = useBrowserApp(kind, () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'Task Tree <mail@tasktree.test>' }));
  const email = uniqueEmail('verify');
  const ownerEmail = uniqueEmail('owner');
  let owner: Client;
  let treeId = '';

  it('asks a new account to verify; the mailed link, opened signed out, verifies after signing in and brings the invitation', async () => {
    owner = new Client(s.t.url);
    await owner.get('/api/v1/auth/me');
    expect((await owner.post('/api/v1/auth/register', { email: ownerEmail, password: PASSWORD })).status).toBe(201);
    await setUserPlan(s.t.app.deps, ownerEmail, 'grove', null);
    treeId = (await makeTree(owner, { name: 'Family orchard' })).id;
    expect((await owner.post(`/api/v1/trees/${treeId}/members`, { email, role: 'viewer' })).status).toBe(201);

    const { page } = s.w;
    const trees = await (await RegisterPage.open(page)).register('Di', email, PASSWORD);
    const banner = new VerifyBanner(page);
    await banner.root.getByText(`Verify your email address ${email}`).waitFor();
    expect(await new InvitationsCard(trees.page).root.count()).toBe(0);
    await expectAccessible(page, 'trees with the verify banner');
    await shot(page, 'verify-banner');
    expect(await banner.request()).toContain(`A verification link is on its way to ${email}`);
    const [link] = await waitForMail(smtp.mails, email, /http\S+\/verify\?token=[A-Za-z0-9_-]+/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.goto(localPath(link));
    await page.waitForURL(/\/signin\?next=/);
    await new SignInPage(page).email.fill(email);
    await new SignInPage(page).password.fill(PASSWORD);
    await new SignInPage(page).submit.click();
    await page
      .getByRole('main')
      .getByRole('status')
      .filter({ hasText: `Your email address ${email} is verified.` })
      .waitFor();
    expect(new URL(page.url()).search).toBe(''); // the token leaves the address bar
    expect(await banner.root.count()).toBe(0);
    await expectAccessible(page, 'verify');
    await shot(page, 'verify-done');

    // The link is spent: opened again it says so, and that the address is verified already.
    await page.goto(localPath(link));
    await page.getByRole('main').getByRole('alert').filter({ hasText: 'verified already' }).waitFor();

    await page.getByRole('link', { name: 'Go to your trees' }).click();
    await new InvitationsCard(page).accept('Family orchard');
  });

  it('lets whoever opens an invitation link join, once; the next person is told the link is spent', async () => {
    const invited = await owner.post(`/api/v1/trees/${treeId}/members`, {
      email: uniqueEmail('friend'),
      role: 'editor',
    });
    const path = localPath(invited.body.invite_url);
    const first = await openPage(s.browser, s.t.url);
    await (await RegisterPage.open(first.page)).register('Ed', uniqueEmail('first'), PASSWORD);
    await first.page.goto(path);
    const invite = new InvitePage(first.page);
    await invite.heading.waitFor();
    await first.page.getByText('Accepting adds the tree to this account.').waitFor();
    expect(await invite.acceptInvitation()).toBe('You joined the tree.');
    await first.page.getByRole('link', { name: 'Open the tree' }).click();
    await first.page.getByRole('img', { name: /Family orchard/ }).waitFor();

    const second = await openPage(s.browser, s.t.url);
    await (await RegisterPage.open(second.page)).register('Flo', uniqueEmail('second'), PASSWORD);
    await second.page.goto(path);
    expect(await new InvitePage(second.page).acceptInvitation()).toContain('unknown or used already');
    await expectAccessible(second.page, 'invitation link spent');
    await shot(second.page, 'invite-spent');
    for (const w of [first, second]) {
      expect(w.cspViolations).toEqual([]);
      expect(w.pageErrors).toEqual([]);
      await w.context.close();
    }
  });

  it('speaks Russian on the banner and the invitation page', async () => {
    const russian = await openPage(s.browser, s.t.url, 'ru-RU');
    await russian.page.goto('/register');
    await russian.page.getByLabel('Имя').fill('Жора');
    await russian.page.getByLabel('Эл. почта').fill(uniqueEmail('ru'));
    await russian.page.getByLabel('Пароль').fill(PASSWORD);
    await russian.page.getByRole('button', { name: 'Создать аккаунт' }).click();
    await russian.page.waitForURL(/\/trees/);
    const banner = russian.page.getByRole('region', { name: 'Проверка адреса' });
    await banner.getByRole('button', { name: 'Подтвердить почту' }).waitFor();
    await russian.page.goto('/invite');
    await russian.page.getByRole('heading', { name: 'Присоединиться к дереву' }).waitFor();
    await russian.page.getByText('Эта страница открывается по ссылке-приглашению').waitFor();
    await expectAccessible(russian.page, 'invite page (ru)');
    await russian.context.close();
  });

  it('never trips the CSP nor throws', async () => {
    expect(s.w.cspViolations).toEqual([]);
    expect(s.w.pageErrors).toEqual([]);
    expect(s.w.dialogs).toEqual([]);
  });
});
