import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';
import { planNames } from '../../domain/plans.js';
import { paidPlans } from '../../domain/billing/checkout.js';

const PlanName = OneOf(planNames);

export const BillingPlan = Type.Object(
  {
    id: PlanName,
    price: Nullable(
      Type.Object({
        amount: Type.Integer({ description: 'minor units: 500 is 5.00' }),
        currency: Type.String({ description: 'ISO 4217, lower case, e.g. usd' }),
        interval: OneOf(['month']),
      }),
    ),
    limits: Type.Object({
      agent_writes: Type.Boolean({
        description:
          'Whether agents (personal tokens, OAuth, MCP) may write; false is Seed: agents only read (403 plan_read_only), the browser writes within the limits',
      }),
      trees: Type.Integer(),
      projects_per_tree: Type.Integer(),
      tasks_per_tree: Type.Integer(),
      storage_bytes: Type.Integer(),
      history_days: Type.Integer(),
      transcription: Type.Boolean(),
      sharing: Type.Boolean(),
    }),
  },
  { $id: 'BillingPlan', title: 'BillingPlan' },
);

export const Billing = Type.Object(
  {
    mode: OneOf(['test'], { description: "Billing runs in the provider's test mode only in this release" }),
    configured: Type.Boolean({ description: 'false: checkout and portal answer 503 billing_unavailable' }),
    plan: PlanName,
    plan_expires_at: Nullable(Timestamp),
    effective_plan: PlanName,
    plans: Type.Array(Type.Ref('BillingPlan')),
  },
  { $id: 'Billing', title: 'Billing' },
);

export const CheckoutInput = Type.Object(
  { plan: OneOf(paidPlans) },
  { additionalProperties: false, $id: 'CheckoutInput', title: 'CheckoutInput' },
);

export const HostedPage = Type.Object({
  url: Type.String({ format: 'uri', description: "the provider's hosted page to send the browser to" }),
});

export const WebhookReceived = Type.Object({
  received: Type.Boolean(),
  outcome: OneOf(['applied', 'duplicate', 'ignored'], {
    description: 'duplicate: this event id was already received; ignored: not an event or account billing acts on',
  }),
});

export const WebhookHeaders = Type.Object({
  'stripe-signature': Type.Optional(
    Type.String({ description: "The provider's signature over the raw body; missing or bad is 400 invalid_signature" }),
  ),
});

/** For the document only: the route reads its body raw, as the signature covers the exact bytes. */
export const ProviderEvent = Type.Object(
  { id: Type.String(), type: Type.String(), created: Type.Integer(), data: Type.Object({ object: Type.Object({}) }) },
  { description: 'A Stripe event, verified against Stripe-Signature before it is read' },
);
