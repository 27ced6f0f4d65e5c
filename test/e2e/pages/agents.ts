import type { Locator, Page } from 'playwright-core';

/** Agent settings: tokens (value shown once in [data-token-value]), MCP help, the journal. */
export class AgentsPage {
  readonly dialog: Locator;
  readonly tokenValue: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
    this.tokenValue = page.locator('[data-token-value]');
  }
  static async open(page: Page): Promise<AgentsPage> {
    await page.getByRole('link', { name: 'Agent settings' }).click();
    await page.getByRole('heading', { name: 'Personal tokens' }).waitFor();
    return new AgentsPage(page);
  }
  /** A row of the tokens table (the journal below names tokens too). */
  tokenRow(name: string): Locator {
    return this.page
      .getByRole('region', { name: 'Personal tokens' })
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }
  async createToken(name: string, lifetime = '30 days'): Promise<string> {
    await this.page.getByRole('button', { name: 'Create token' }).click();
    await this.dialog.getByLabel('Name').fill(name);
    await this.dialog.getByLabel('Lifetime').selectOption({ label: lifetime });
    await this.dialog.getByRole('button', { name: 'Create token' }).click();
    await this.tokenValue.waitFor();
    return (await this.tokenValue.textContent()) ?? '';
  }
  async revoke(name: string): Promise<void> {
    await this.tokenRow(name).getByRole('button', { name: 'Revoke' }).click();
    await this.dialog.getByRole('button', { name: 'Revoke' }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }
}
