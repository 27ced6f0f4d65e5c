import { afterAll, beforeAll, expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { startFakeSmtp } from '../helpers/fake-smtp.js';
import { browserDescribe, expectAccessible, openPage } from './support/browser.js';
import { PASSWORD, uniqueEmail, useBrowserApp } from './support/session.js';
import { RegisterPage, SignInPage } from './pages/auth.js';

const NEW_PASSWORD = 'a brand new passphrase';

browserDescribe.each(databases)('password reset through the mailed link (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => smtp.close());
  const s = useBrowserApp(kind, () => ({ SMTP_URL: smtp.url, MAIL_FROM: 'Task Tree <reset@tasktree.test>' }));
  const email = uniqueEmail('reset');

  async function mailedLink(): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const mail = smtp.mails.find((m) => m.to.includes(email));
      if (mail !== undefined)
        return /open (http\S+) within/.exec(mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))![1]!;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('no reset mail');
  }

  it('asks for a link, follows it, sets a new password and signs in with it', async () => {
    const { page } = s.w;
    await (await RegisterPage.open(page)).register('Cy', email, PASSWORD);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in page has an Email field too: fill the reset page's, once it is the one shown.
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    // Whatever the answer, it shows: the status, or the error note that says what went wrong.
    await page.locator('[role=status], [role=alert]').first().waitFor();
    expect(await page.locator('[role=status], [role=alert]').first().textContent()).toContain(
      'a reset link is on its way',
    );
    // The mail names the service's PUBLIC_URL; the test server listens on its own port.
    const link = new URL(await mailedLink());
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe(''); // the token leaves the address bar
    await expectAccessible(page, 'reset');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL('**/trees');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const signIn = new SignInPage(page);
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await signIn.email.fill(email);
    await signIn.password.fill(PASSWORD);
    await signIn.submit.click();
    await page.getByRole('alert').filter({ hasText: 'do not match' }).waitFor();
    await signIn.signIn(email, NEW_PASSWORD);
  });

  it("greets a signed-out visitor in the browser's language", async () => {
    const russian = await openPage(s.browser, s.t.url, 'ru-RU');
    await russian.page.goto('/signin');
    await russian.page.getByRole('heading', { name: 'С возвращением' }).waitFor();
    expect(await russian.page.evaluate('document.documentElement.lang')).toBe('ru');
    await expectAccessible(russian.page, 'sign in (ru)');
    await russian.context.close();
  });
});
