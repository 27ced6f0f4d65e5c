import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import { getUser } from '../accounts/accounts.js';
import type { BillingProvider } from './provider.js';

export const paidPlans = ['sprout', 'grove'] as const;
export type PaidPlan = (typeof paidPlans)[number];

const productNames: Record<PaidPlan, string> = { sprout: 'Task Tree Sprout', grove: 'Task Tree Grove' };

/** @throws billing_unavailable */
function providerOf(deps: Deps): BillingProvider {
  if (deps.billing === null)
    throw new DomainError('billing_unavailable', 'Billing is not configured on this server yet.');
  return deps.billing;
}

/**
 * Where the hosted pages send the browser back: the app's billing page, told what was bought, so
 * it can wait for the webhook to show that plan instead of reloading until something changes.
 */
function billingPage(deps: Deps, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${deps.config.publicUrl}/billing${search === '' ? '' : `?${search}`}`;
}

/**
 * A hosted checkout page for a monthly plan. The plan itself changes only when the provider's
 * verified webhook says the subscription is paid (see events.ts).
 * @throws billing_unavailable
 */
export async function startCheckout(deps: Deps, actor: Actor, plan: PaidPlan): Promise<{ url: string }> {
  const provider = providerOf(deps);
  const user = await getUser(deps, actor.user.id);
  const { currency, prices } = deps.config.billing;
  // A provider failure is billing_unavailable (503); nothing of ours was written before the call.
  return provider.createCheckout({
    userId: user.id,
    email: user.email,
    customerId: user.billing_customer_id,
    plan,
    productName: productNames[plan],
    amount: prices[plan],
    currency,
    successUrl: billingPage(deps, { checkout: 'success', plan }),
    cancelUrl: billingPage(deps, { checkout: 'cancelled' }),
  });
}

/**
 * The provider's hosted customer portal (change plan, card, cancel).
 * @throws billing_unavailable, conflict (no billing customer yet: nothing was ever bought)
 */
export async function openPortal(deps: Deps, actor: Actor): Promise<{ url: string }> {
  const provider = providerOf(deps);
  const user = await getUser(deps, actor.user.id);
  if (user.billing_customer_id === null)
    throw new DomainError('conflict', 'There is no subscription to manage yet; upgrade first.');
  const customerId = user.billing_customer_id;
  return provider.createPortal(customerId, billingPage(deps));
}
