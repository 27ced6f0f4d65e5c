import type Stripe from 'stripe';
import type { Deps } from '../deps.js';
import type { Trx } from '../../store/db.js';
import { nowIso } from '../ids.js';
import { paidPlans, type PaidPlan } from './checkout.js';
import { writeOutsideTrees } from '../write.js';

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

/** What became of one verified event; `reason` says why one was ignored, for the log (never a secret or card data). */
export interface EventResult {
  outcome: EventOutcome;
  reason: string | null;
  userId: string | null;
}

const applied = (userId: string): EventResult => ({ outcome: 'applied', reason: null, userId });
const ignored = (reason: string, userId: string | null = null): EventResult => ({ outcome: 'ignored', reason, userId });

/** The stored plan a subscription status means; null leaves the plan as it is (e.g. a first payment still pending). */
function planForStatus(status: Stripe.Subscription.Status, plan: PaidPlan): PaidPlan | 'seed' | null {
  if (status === 'active' || status === 'trialing') return plan;
  if (status === 'canceled' || status === 'unpaid' || status === 'incomplete_expired' || status === 'paused')
    return 'seed';
  return null;
}

/** End of the paid period: on the items since the provider's 2025 API versions, on the subscription before. */
function periodEnd(subscription: Stripe.Subscription): string | null {
  const ends = (subscription.items?.data ?? [])
    .map((item) => item.current_period_end)
    .filter((n) => typeof n === 'number');
  const legacy = (subscription as { current_period_end?: unknown }).current_period_end;
  const end = ends.length > 0 ? Math.max(...ends) : typeof legacy === 'number' ? legacy : null;
  return end === null ? null : new Date(end * 1000).toISOString();
}

function idOf(value: string | { id: string } | null): string | null {
  return value === null ? null : typeof value === 'string' ? value : value.id;
}

/**
 * The account a subscription belongs to: by its bound customer, else by the user id our checkout
 * put in the subscription's metadata (its events may arrive before checkout's), binding the
 * customer then. An account bound to another customer is not taken over.
 */
async function subscriptionOwner(trx: Trx, subscription: Stripe.Subscription): Promise<string | null> {
  const customerId = idOf(subscription.customer);
  if (customerId === null) return null;
  const bound = await trx
    .selectFrom('users')
    .select('id')
    .where('billing_customer_id', '=', customerId)
    .executeTakeFirst();
  if (bound !== undefined) return bound.id;
  const userId = subscription.metadata?.user_id;
  if (typeof userId !== 'string') return null;
  const result = await trx
    .updateTable('users')
    .set({ billing_customer_id: customerId })
    .where('id', '=', userId)
    .where('billing_customer_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? userId : null;
}

/**
 * Sets the plan unless a newer provider event already did: one conditional UPDATE, so two
 * events for one account racing on PostgreSQL still end in the newer one's state.
 */
async function setPlanIfNewer(
  trx: Trx,
  userId: string,
  plan: string,
  expiresAt: string | null,
  eventAt: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('users')
    .set({ plan, plan_expires_at: expiresAt, billing_event_at: eventAt, updated_at: nowIso() })
    .where('id', '=', userId)
    .where((w) => w.or([w('billing_event_at', 'is', null), w('billing_event_at', '<=', eventAt)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

async function applySubscription(
  trx: Trx,
  event: Stripe.Event,
  subscription: Stripe.Subscription,
  eventAt: string,
): Promise<EventResult> {
  const userId = await subscriptionOwner(trx, subscription);
  if (userId === null) return ignored('unknown customer');
  let plan: string;
  let expiresAt: string | null = null;
  if (event.type === 'customer.subscription.deleted') {
    plan = 'seed';
  } else {
    const named = subscription.metadata?.plan;
    if (!(paidPlans as readonly string[]).includes(named ?? ''))
      return ignored('no plan in the subscription metadata', userId);
    const next = planForStatus(subscription.status, named as PaidPlan);
    if (next === null) return ignored(`status ${subscription.status} changes no plan`, userId);
    plan = next;
    if (next !== 'seed') expiresAt = periodEnd(subscription);
  }
  return (await setPlanIfNewer(trx, userId, plan, expiresAt, eventAt))
    ? applied(userId)
    : ignored('older than the last applied event', userId);
}

/** Binds the provider's customer to the account our checkout named as its client reference. */
async function applyCheckout(trx: Trx, session: Stripe.Checkout.Session): Promise<EventResult> {
  const userId = session.client_reference_id;
  const customerId = idOf(session.customer);
  if (userId === null || customerId === null) return ignored('no client reference or customer');
  const holder = await trx
    .selectFrom('users')
    .select('id')
    .where('billing_customer_id', '=', customerId)
    .executeTakeFirst();
  if (holder !== undefined)
    return holder.id === userId ? applied(userId) : ignored('customer bound to another account');
  const result = await trx
    .updateTable('users')
    .set({ billing_customer_id: customerId, updated_at: nowIso() })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? applied(userId) : ignored('unknown account');
}

async function applyEvent(trx: Trx, event: Stripe.Event, eventAt: string): Promise<EventResult> {
  switch (event.type) {
    case 'checkout.session.completed':
      return applyCheckout(trx, event.data.object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return applySubscription(trx, event, event.data.object, eventAt);
    default:
      return ignored('event type not handled');
  }
}

/**
 * Applies one verified provider event, once: its id is recorded in the same transaction as its
 * effect, and the id's primary key makes a concurrent redelivery wait and then apply nothing.
 * A plan change forgets cached credentials, so every door sees it at the next request.
 */
export async function applyBillingEvent(deps: Deps, event: Stripe.Event): Promise<EventResult> {
  const eventAt = new Date(event.created * 1000).toISOString();
  const result = await writeOutsideTrees(deps, async ({ trx }) => {
    const recorded = await trx
      .insertInto('billing_events')
      .values({
        id: event.id,
        type: event.type,
        user_id: null,
        outcome: 'pending',
        event_created_at: eventAt,
        received_at: nowIso(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0)
      return { outcome: 'duplicate', reason: 'already received', userId: null } satisfies EventResult;
    const outcome = await applyEvent(trx, event, eventAt);
    await trx
      .updateTable('billing_events')
      .set({
        user_id: outcome.userId,
        outcome: outcome.reason === null ? outcome.outcome : `${outcome.outcome}: ${outcome.reason}`,
      })
      .where('id', '=', event.id)
      .execute();
    return outcome;
  });
  if (result.outcome === 'applied' && result.userId !== null) deps.credentials.forgetUser(result.userId);
  return result;
}
