import type { Locator, Page } from 'playwright-core';

export class AccountPage {
  readonly name: Locator;
  language: Locator;
  timezone: Locator;
  readonly save: Locator;
  constructor(readonly page: Page) {
    this.name = page.getByRole('main').getByLabel('Name');
    this.language = page.getByLabel('Language');
    this.timezone = page.getByLabel('Time zone');
    this.save = page.getByRole('button', { name: 'Save' });
  }
  static async open(page: Page): Promise<AccountPage> {
    return AccountPage.openAs(page, 'Account');
  }
  /** By the nav link's name in the current language; the fields are found by their element order. */
  static async openAs(page: Page, link: string): Promise<AccountPage> {
    await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
    await page.locator('form select').first().waitFor();
    const account = new AccountPage(page);
    return Object.assign(account, {
      language: page.locator('form select').nth(0),
      timezone: page.locator('form select').nth(1),
    });
  }
}
