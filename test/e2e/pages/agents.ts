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
  /** The token dialog's choice of trees (CONTRACT §16.4): a fieldset named `Trees`. */
  get treesGroup(): Locator {
    return this.dialog.getByRole('group', { name: 'Trees' });
  }
  /** `trees`: the names to choose under "Chosen trees"; left out, the token gets all trees. */
  async createToken(name: string, lifetime = '30 days', trees?: string[]): Promise<string> {
    await this.page.getByRole('button', { name: 'Create token' }).click();
    await this.dialog.getByLabel('Name').fill(name);
    await this.dialog.getByLabel('Lifetime').selectOption({ label: lifetime });
    if (trees !== undefined) {
      await this.treesGroup.getByRole('radio', { name: 'Chosen trees' }).check();
      for (const tree of trees) await this.treesGroup.getByRole('checkbox', { name: tree, exact: true }).check();
    }
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
