import type { Locator, Page } from 'playwright-core';

/** Billing: the test-mode banner, the plan now, the plans table with its upgrade buttons, the portal. */
export class BillingPage {
  readonly banner: Locator;
  readonly plans: Locator;
  readonly manage: Locator;
  readonly status: Locator;
  constructor(readonly page: Page) {
    this.banner = page.getByRole('note').filter({ hasText: 'Test mode' });
    this.plans = page.getByRole('table', { name: 'Plans' });
    this.manage = page.getByRole('button', { name: 'Manage subscription' });
    this.status = page.getByRole('main').getByRole('status');
  }
  static async open(page: Page): Promise<BillingPage> {
    await page.getByRole('navigation').getByRole('link', { name: 'Billing', exact: true }).click();
    const billing = new BillingPage(page);
    await billing.plans.waitFor();
    return billing;
  }
  upgrade(plan: 'Sprout' | 'Grove'): Locator {
    return this.page.getByRole('button', { name: `Upgrade to ${plan}` });
  }
  /** The plan shown as the current one, under "Your plan". */
  currentPlan(): Locator {
    return this.page.locator('.plan-name');
  }
}
