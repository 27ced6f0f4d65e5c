import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { databases } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeTree } from '../helpers/data.js';
import { browserDescribe, expectAccessible, shot } from './support/browser.js';
import { PASSWORD, uniqueEmail, useBrowserApp } from './support/session.js';
import { RegisterPage } from './pages/auth.js';
import { AccountPage } from './pages/account.js';
import { TreesPage } from './pages/trees.js';

const NEW_PASSWORD = 'another long passphrase';

/** The same person in another browser, signed in through the API. */
async function otherBrowser(baseUrl: string, email: string, password: string): Promise<Client> {
  const client = new Client(baseUrl);
  await client.get('/api/v1/auth/me');
  const answer = await client.post('/api/v1/auth/login', { email, password });
  expect(answer.status, answer.text).toBe(200);
  return client;
}

function form(page: Page, name: string) {
  return page.getByRole('main').getByRole('form', { name, exact: true });
}

/** Issue 32 items 2 and 3 in the browser: blank names refused in words; the Account page's three confirmations. */
browserDescribe.each(databases)('the account page and blank names in the browser (%s)', (kind) => {
  const s = useBrowserApp(kind);
  let email = uniqueEmail('account');

  it(
    'refuses an all-blank tree name and task title in words, in English and in Russian',
    { timeout: 90_000 },
    async () => {
      const { page } = s.w;
      const trees = await (await RegisterPage.open(page)).register('Vera', email, PASSWORD);
      await trees.newTree.click();
      await trees.dialog.getByLabel('Name').fill('   ');
      await trees.dialog.getByRole('button', { name: 'Save' }).click();
      await trees.dialog
        .getByRole('alert')
        .filter({ hasText: '“Name” needs at least one letter, digit or sign: it cannot be blank or only spaces.' })
        .waitFor();
      await expectAccessible(page, 'blank tree name');
      await shot(page, 'blank-tree-name');
      await trees.dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(
        (await page.evaluate("fetch('/api/v1/trees').then((r) => r.json())")) as { items: unknown[] },
      ).toMatchObject({
        items: [],
      });

      // The task panel refuses a blank title too, and keeps what was saved.
      await trees.create('Dacha');
      const tree = await trees.open('Dacha');
      await tree.newTask('Water the roses');
      const panel = await tree.openTask('Water the roses');
      await panel.field('Title').fill(' \t ');
      await panel.save();
      await panel.root
        .getByRole('alert')
        .filter({ hasText: '“Title” needs at least one letter, digit or sign' })
        .waitFor();
      await expectAccessible(page, 'blank task title');
      await shot(page, 'blank-task-title');
      const saved = (await page.evaluate("fetch('/api/v1/tasks').then((r) => r.json())")) as {
        items: { title: string }[];
      };
      expect(saved.items.map((x) => x.title)).toEqual(['Water the roses']);

      // Put the saved title back, so leaving the panel has nothing unsaved to ask about (CONTRACT §18).
      await panel.root.getByLabel('Title').fill('Water the roses');
      const account = await AccountPage.open(page);
      await account.language.selectOption({ label: 'Русский' });
      await account.save.click();
      await page.getByRole('link', { name: 'Деревья' }).click();
      await page.getByRole('button', { name: 'Новое дерево' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Имя').fill('\u00a0 ');
      await dialog.getByRole('button', { name: 'Сохранить' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'нужна хотя бы одна буква, цифра или знак' }).waitFor();
      await shot(page, 'blank-tree-name-ru');
      await dialog.getByRole('button', { name: 'Отмена' }).click();
      const back = await AccountPage.openAs(page, 'Профиль');
      await back.language.selectOption({ label: 'English' });
      await page.getByRole('button', { name: 'Сохранить' }).click();
      await page.getByRole('link', { name: 'Trees' }).waitFor();
    },
  );

  it(
    'changes the password behind a confirmation; a wrong current password is said so; other browsers are signed out',
    { timeout: 90_000 },
    async () => {
      const { page } = s.w;
      const other = await otherBrowser(s.t.url, email, PASSWORD);
      await AccountPage.open(page);
      const passwordForm = form(page, 'Password');
      await expectAccessible(page, 'account with password, email and delete');
      await shot(page, 'account-security');

      await passwordForm.getByLabel('Current password').fill('not my password');
      await passwordForm.getByLabel('New password').fill(NEW_PASSWORD);
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change your password?' });
      await dialog.getByText('Every other browser signed in to this account is signed out').waitFor();
      await expectAccessible(page, 'password confirmation');
      await shot(page, 'account-password-confirm');
      await dialog.getByRole('button', { name: 'Change password' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'That password is not correct.' }).waitFor();
      // Still signed in: a wrong password is not a dead session.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();

      await passwordForm.getByLabel('Current password').fill(PASSWORD);
      await passwordForm.getByRole('button', { name: 'Change password' }).click();
      await dialog.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Your password is changed.' }).waitFor();
      expect((await other.get('/api/v1/auth/me')).body.user).toBeNull();
      // This browser goes on with its new session and CSRF value.
      await account(page).name.fill('Vera V.');
      await account(page).save.click();
      await page.getByRole('status').filter({ hasText: 'Your profile is saved.' }).waitFor();
      await otherBrowser(s.t.url, email, NEW_PASSWORD);
    },
  );

  it('changes the email behind a confirmation that names the new address', { timeout: 90_000 }, async () => {
    const { page } = s.w;
    const next = uniqueEmail('moved');
    const emailForm = form(page, 'Email');
    await emailForm.getByLabel('New email').fill(next);
    await emailForm.getByLabel('Password').fill(NEW_PASSWORD);
    await emailForm.getByRole('button', { name: 'Change email' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change your email?' });
    await dialog.getByText(`You will sign in as ${next} from now on.`).waitFor();
    await expectAccessible(page, 'email confirmation');
    await shot(page, 'account-email-confirm');
    await dialog.getByRole('button', { name: 'Change email' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Your email is now ${next}.` })
      .waitFor();
    await emailForm.getByText(`You sign in as ${next}.`).waitFor();
    expect((await page.evaluate("fetch('/api/v1/auth/me').then((r) => r.json())")) as { user: unknown }).toMatchObject({
      user: { email: next, email_verified: false },
    });
    email = next;
  });

  it('deletes the account behind a confirmation, in Russian, and signs out for good', { timeout: 90_000 }, async () => {
    const { page } = s.w;
    const api = await otherBrowser(s.t.url, email, NEW_PASSWORD);
    const tree = await makeTree(api, { name: 'Orchard' });
    await TreesPage.open(page);
    await page.getByRole('link', { name: 'Orchard', exact: true }).waitFor();

    const account = await AccountPage.open(page);
    await account.language.selectOption({ label: 'Русский' });
    await account.save.click();
    await page.getByRole('link', { name: 'Деревья' }).waitFor();
    const deleteForm = form(page, 'Удаление аккаунта');
    await deleteForm.getByLabel('Пароль').fill(NEW_PASSWORD);
    await deleteForm.getByRole('button', { name: 'Удалить аккаунт' }).click();
    const dialog = page.getByRole('dialog', { name: `Удалить аккаунт ${email}?` });
    await dialog.getByText('Ваши деревья будут удалены со всеми проектами').waitFor();
    await dialog.getByText('ваши комментарии и сообщения останутся без вашего имени').waitFor();
    await expectAccessible(page, 'delete confirmation in Russian');
    await shot(page, 'account-delete-confirm-ru');
    await dialog.getByRole('button', { name: 'Удалить навсегда' }).click();
    await page.waitForURL(/\/signin/);

    expect((await api.get('/api/v1/auth/me')).body.user).toBeNull();
    const again = new Client(s.t.url);
    await again.get('/api/v1/auth/me');
    expect((await again.post('/api/v1/auth/login', { email, password: NEW_PASSWORD })).status).toBe(401);
    expect(await s.t.app.deps.db.selectFrom('trees').select('id').where('id', '=', tree.id).execute()).toEqual([]);
  });
});

function account(page: Page): AccountPage {
  return new AccountPage(page);
}
