import type Stripe from 'stripe';
import type { BillingConfig } from '../../config.js';
import { DomainError } from '../errors.js';

/** The provider's signature tolerance we accept (CONTRACT §14): a replay older than this is refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface CheckoutRequest {
  userId: string;
  email: string;
  customerId: string | null;
  plan: 'sprout' | 'grove';
  productName: string;
  amount: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

/**
 * What billing asks of the provider, through its official SDK only (no hand-written HMAC or
 * API client). `verify` answers the event the signed body carries.
 */
export interface BillingProvider {
  /** @throws billing_unavailable (as createPortal: the provider is down, refused or timed out) */
  createCheckout(request: CheckoutRequest): Promise<{ url: string }>;
  createPortal(customerId: string, returnUrl: string): Promise<{ url: string }>;
  /** @throws invalid_signature, invalid_json */
  verify(rawBody: Buffer, signature: string | undefined): Stripe.Event;
}

/** The SDK's own API address unless BILLING_API_URL points it at a mock or a local stand-in. */
function addressOf(apiUrl: string | null): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (apiUrl === null) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port !== '' ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/**
 * The provider, or null while billing is unconfigured (then billing answers 503 billing_unavailable).
 * The SDK is imported only once billing is configured: a service without it does not carry it in memory.
 */
export async function makeBillingProvider(config: BillingConfig): Promise<BillingProvider | null> {
  if (config.providerKey === null || config.webhookSecret === null) return null;
  const { default: Stripe } = await import('stripe');
  const webhookSecret = config.webhookSecret;
  const stripe = new Stripe(config.providerKey, {
    ...addressOf(config.apiUrl),
    timeout: 20_000,
    maxNetworkRetries: 1,
    telemetry: false,
  });
  /** A provider call that failed (down, refused, timed out) is billing_unavailable: the caller may try again later. */
  const failed = (err: unknown): never => {
    if (err instanceof Stripe.errors.StripeError)
      throw new DomainError(
        'billing_unavailable',
        'The billing provider could not be reached or refused the request; try again later.',
      );
    throw err;
  };
  return {
    async createCheckout(request) {
      const session = await stripe.checkout.sessions
        .create({
          mode: 'subscription',
          client_reference_id: request.userId,
          ...(request.customerId !== null ? { customer: request.customerId } : { customer_email: request.email }),
          line_items: [
            {
              quantity: 1,
              // Inline price data: nothing has to be created at the provider before the first sale.
              price_data: {
                currency: request.currency,
                unit_amount: request.amount,
                recurring: { interval: 'month' },
                product_data: { name: request.productName },
              },
            },
          ],
          metadata: { plan: request.plan, user_id: request.userId },
          // The subscription's events carry the plan and the account, even when they arrive before checkout's.
          subscription_data: { metadata: { plan: request.plan, user_id: request.userId } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        })
        .catch(failed);
      if (session.url === null)
        throw new DomainError('billing_unavailable', 'The billing provider returned no checkout page.');
      return { url: session.url };
    },
    async createPortal(customerId, returnUrl) {
      const session = await stripe.billingPortal.sessions
        .create({ customer: customerId, return_url: returnUrl })
        .catch(failed);
      return { url: session.url };
    },
    verify(rawBody, signature) {
      try {
        return stripe.webhooks.constructEvent(rawBody, signature ?? '', webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
          throw new DomainError(
            'invalid_signature',
            "The Stripe-Signature header is missing, malformed, too old or not made with this endpoint's secret.",
          );
        }
        // The signature held, so the body is the provider's, but it is not JSON.
        if (err instanceof SyntaxError) throw new DomainError('invalid_json', 'The signed event body is not JSON.');
        throw err;
      }
    },
  };
}
