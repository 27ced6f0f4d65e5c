import { afterAll, beforeAll, expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeUser } from '../helpers/factories.js';
import {
  billingEnv,
  checkoutCompleted,
  signEvent,
  startFakeBilling,
  subscriptionEvent,
} from '../helpers/fake-billing.js';
import { browserDescribe, expectAccessible, shot } from './support/browser.js';
import { useBrowserApp } from './support/session.js';
import { BillingPage } from './pages/billing.js';

/** Signs the browser context in as `person` (the session cookie only) and opens the billing page. */
async function openAs(
  s: ReturnType<typeof useBrowserApp>,
  person: Awaited<ReturnType<typeof makeUser>>,
): Promise<BillingPage> {
  await s.w.context.clearCookies();
  await s.w.context.addCookies([
    { name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url: s.t.url },
  ]);
  await s.w.page.goto('/trees');
  return BillingPage.open(s.w.page);
}

browserDescribe.each(databases)('the billing page while unconfigured (%s)', (kind) => {
  const s = useBrowserApp(kind);

  it('says billing is unavailable and disables its buttons, still showing the plans and the test-mode banner', async () => {
    const person = await makeUser(s.t.url);
    const page = await openAs(s, person);
    await page.banner.waitFor();
    await s.w.page.getByText('Billing is not available yet').waitFor();
    expect(await page.upgrade('Sprout').isDisabled()).toBe(true);
    expect(await page.upgrade('Grove').isDisabled()).toBe(true);
    expect(await page.manage.isDisabled()).toBe(true);
    expect(await page.plans.getByRole('row', { name: /^Trees / }).textContent()).toMatch(/3.*25.*250/);
    await expectAccessible(s.w.page, 'billing, unconfigured');
    await shot(s.w.page, 'billing-unconfigured');
    expect(s.w.cspViolations).toEqual([]);
  });
});

browserDescribe.each(databases)('buying a plan in the browser (%s)', (kind) => {
  let provider: Awaited<ReturnType<typeof startFakeBilling>>;
  beforeAll(async () => {
    provider = await startFakeBilling();
  });
  afterAll(async () => provider.close());
  const s = useBrowserApp(kind, () => billingEnv(provider.url));

  it('upgrades through the hosted checkout and shows the new plan once the webhook arrives, without reloading', async () => {
    provider.state.returnOrigin = s.t.url;
    const person = await makeUser(s.t.url);
    const page = await openAs(s, person);
    await page.banner.waitFor();
    expect(await page.plans.getByRole('row').filter({ hasText: 'Free' }).textContent()).toMatch(
      /\$5\.00 \/ month.*\$12\.00 \/ month/,
    );
    await expectAccessible(s.w.page, 'billing');

    // Nothing bought yet: the portal has nothing to manage.
    await page.manage.click();
    await s.w.page.getByText('There is no subscription to manage yet').waitFor();

    let navigations = 0;
    let billingReads = 0;
    s.w.page.on('framenavigated', (frame) => {
      if (frame === s.w.page.mainFrame()) navigations += 1;
    });
    s.w.page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/v1/billing') billingReads += 1;
    });
    await page.upgrade('Grove').click();
    // The stand-in checkout sends the browser back at once; the webhook has not come yet.
    await s.w.page.getByText('Waiting for the provider to confirm your Grove plan').waitFor();
    // The return's query is dropped right after the page shows it (an effect after the render).
    await expect.poll(() => new URL(s.w.page.url()).search).toBe('');
    const checkout = provider.calls.find((c) => c.form.client_reference_id === person.user.id)!;
    expect(checkout.form['metadata[plan]']).toBe('grove');
    // While it waits, the page asks the API again; it never reloads itself.
    const [navigationsBack, readsBack] = [navigations, billingReads];
    await s.w.page.waitForTimeout(4500);
    expect(navigations).toBe(navigationsBack);
    expect(billingReads).toBeGreaterThanOrEqual(readsBack + 2);
    await s.w.page.getByText('Waiting for the provider to confirm your Grove plan').waitFor();

    const customer = `cus_e2e_${person.user.id}`;
    for (const event of [
      checkoutCompleted(person.user.id, customer),
      subscriptionEvent('created', { customer, plan: 'grove' }),
    ]) {
      const signed = signEvent(event);
      const answer = await new Client(s.t.url).request('POST', '/api/v1/billing/webhook', {
        raw: signed.body,
        headers: { 'stripe-signature': signed.signature },
      });
      expect(answer.body.outcome).toBe('applied');
    }
    await s.w.page.getByText('Your plan is now Grove.').waitFor();
    await expect.poll(() => page.currentPlan().textContent()).toBe('Grove');
    await s.w.page.getByText(/Paid until/).waitFor();
    await shot(s.w.page, 'billing-after-purchase');
    // Confirmed, it stops asking.
    const settled = billingReads;
    await s.w.page.waitForTimeout(2000);
    expect(billingReads).toBe(settled);
    expect(navigations).toBe(navigationsBack);
    expect(await page.upgrade('Grove').count()).toBe(0);

    // Manage goes to the portal, which sends the browser back to this page.
    const returned = s.w.page.waitForEvent('framenavigated', (frame) => frame === s.w.page.mainFrame());
    await page.manage.click();
    await returned;
    await s.w.page.waitForURL(/\/billing$/);
    expect(provider.calls.at(-1)).toMatchObject({ path: '/v1/billing_portal/sessions', form: { customer } });
    await page.plans.waitFor();
    expect(s.w.cspViolations).toEqual([]);
    expect(s.w.pageErrors).toEqual([]);
  });
});
