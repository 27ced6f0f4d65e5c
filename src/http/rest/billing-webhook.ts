import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { applyBillingEvent } from '../../domain/billing/events.js';
import { access } from '../access.js';
import { errors } from '../schemas/common.js';
import { ProviderEvent, WebhookHeaders, WebhookReceived } from '../schemas/billing.js';
import { header } from '../pipeline.js';

/**
 * POST /billing/webhook: the provider's events. Its own plugin, because the signature covers the
 * exact bytes sent: the body is kept raw (whatever its content type) and parsed only after the
 * SDK verified it. Fastify's body limit (1 MiB) still bounds it. Only the event id, type and
 * outcome are logged; never the body, the signature or the secret.
 */
export const billingWebhookRoute =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    app.post(
      '/billing/webhook',
      {
        config: {
          access: access.anyone,
          idempotency: 'ignore',
          documentedBody: { content: { 'application/json': { schema: ProviderEvent } } },
        },
        schema: {
          operationId: 'receiveBillingEvent',
          tags: ['Billing'],
          summary: "The billing provider's events (signed), applied once each",
          description:
            'Needs no credentials: the raw body is verified against Stripe-Signature with BILLING_WEBHOOK_SECRET (5 minutes tolerance). ' +
            'Handled: checkout.session.completed, customer.subscription.created/updated/deleted; other types answer 200 and are ignored. ' +
            'A redelivered event id answers 200 and changes nothing. 503 billing_unavailable while unconfigured.',
          headers: WebhookHeaders,
          response: { 200: WebhookReceived, ...errors(413, 503) },
        },
      },
      async (request) => {
        if (deps.billing === null)
          throw new DomainError('billing_unavailable', 'Billing is not configured on this server yet.');
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const event = deps.billing.verify(raw, header(request, 'stripe-signature'));
        const result = await applyBillingEvent(deps, event);
        const log = {
          billing_event: event.id,
          type: event.type,
          outcome: result.outcome,
          reason: result.reason,
          user_id: result.userId,
        };
        if (result.outcome === 'ignored' && result.reason !== 'event type not handled')
          request.log.warn(log, 'billing event ignored');
        else request.log.info(log, 'billing event');
        return { received: true, outcome: result.outcome };
      },
    );
  };
