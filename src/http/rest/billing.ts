import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { getBilling } from '../../domain/billing/overview.js';
import { openPortal, startCheckout } from '../../domain/billing/checkout.js';
import { access } from '../access.js';
import { errors, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import { Billing, BillingPlan, CheckoutInput, HostedPage } from '../schemas/billing.js';
import { billingWebhookRoute } from './billing-webhook.js';

const tags = ['Billing'];

/** CONTRACT §14: the browser's billing page, checkout and portal (session only), and the provider's webhook. */
export const billingRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addSchema(BillingPlan);
    app.addSchema(Billing);

    app.get(
      '/billing',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'getBilling',
          tags,
          summary: "The signed-in user's plan, and every plan with its price and limits",
          headers: ReadHeaders,
          response: { 200: Type.Ref('Billing'), ...errors(401, 403, 409) },
        },
      },
      async (request) => getBilling(deps, request.actor!),
    );

    app.post(
      '/billing/checkout',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'startCheckout',
          tags,
          summary: 'A hosted checkout page for a monthly plan',
          description:
            "The plan changes only when the provider's verified webhook reports the paid subscription. 503 billing_unavailable while unconfigured.",
          body: CheckoutInput,
          headers: WriteHeaders,
          response: { 200: HostedPage, ...errors(401, 403, 409, 503) },
        },
      },
      async (request) => startCheckout(deps, request.actor!, request.body.plan),
    );

    app.post(
      '/billing/portal',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'openBillingPortal',
          tags,
          summary: "The provider's hosted customer portal (change plan, card, cancel)",
          description: '409 conflict when nothing was bought yet; 503 billing_unavailable while unconfigured.',
          headers: WriteHeaders,
          response: { 200: HostedPage, ...errors(401, 403, 409, 503) },
        },
      },
      async (request) => openPortal(deps, request.actor!),
    );

    await app.register(billingWebhookRoute(deps));
  };
