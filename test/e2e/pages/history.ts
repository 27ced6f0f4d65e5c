import type { Locator, Page } from 'playwright-core';

/** The tree page's History tab (CONTRACT §16.4): one row per change, `Undo`, and the undo dialogs. */
export class HistoryTab {
  readonly panel: Locator;
  readonly dialog: Locator;
  constructor(
    readonly page: Page,
    tabName = 'History',
  ) {
    this.panel = page.getByRole('tabpanel', { name: tabName });
    this.dialog = page.getByRole('dialog');
  }
  static async open(page: Page, tabName = 'History'): Promise<HistoryTab> {
    await page.getByRole('tab', { name: tabName }).click();
    const tab = new HistoryTab(page, tabName);
    await tab.panel.locator('.changes').waitFor();
    return tab;
  }
  /** A change's row, by the id its REST answer carried in `Change-Id`. */
  change(changeId: string): Locator {
    return this.panel.locator(`[data-change-id="${changeId}"]`);
  }
  rows(): Locator {
    return this.panel.locator('li.change');
  }
  /** Presses `Undo` on the change and `Undo` in the dialog that asks. */
  async undo(changeId: string, button = 'Undo'): Promise<void> {
    await this.change(changeId).getByRole('button', { name: button, exact: true }).click();
    await this.dialog.getByRole('button', { name: button, exact: true }).click();
  }
}
