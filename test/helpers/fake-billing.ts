import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

export const TEST_PROVIDER_KEY = 'sk_test_fakeprovider0123456789';
export const TEST_WEBHOOK_SECRET = 'whsec_fakeprovider0123456789';

export interface ProviderCall {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The form-encoded fields as sent, e.g. `line_items[0][price_data][unit_amount]`. */
  form: Record<string, string>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (status: number, body: unknown) => ({ status, body: JSON.stringify(body) });

/**
 * The billing provider's API on loopback, for the calls the service makes through the official
 * SDK: `POST /v1/checkout/sessions` and `POST /v1/billing_portal/sessions`. It records each call's
 * form fields, so tests assert the request shapes, and answers as the provider does. `failing`
 * makes every call answer a 500 (the SDK retries once, then gives up). Its hosted pages
 * (`GET /c/pay/…`, `GET /p/session/…`) stand for a paid checkout and a visit to the portal: they
 * send the browser straight back to the session's success or return URL.
 */
export async function startFakeBilling() {
  const calls: ProviderCall[] = [];
  /**
   * `returnOrigin`: the app's real origin, for a test app whose PUBLIC_URL cannot know the port
   * it was given; the hosted pages then send the browser back there, path and query kept.
   */
  const state: { failing: boolean; returnOrigin: string | null } = { failing: false, returnOrigin: null };
  /** Hosted page path -> where it sends the browser back. */
  const hostedPages = new Map<string, string>();
  let url = '';
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (request, response) => {
    const text = await bodyOf(request).catch(() => null);
    if (text === null) return;
    const path = (request.url ?? '').split('?')[0]!;
    const form = Object.fromEntries(new URLSearchParams(text));
    const back = request.method === 'GET' ? hostedPages.get(path) : undefined;
    if (back !== undefined) {
      const target = new URL(back);
      const location = state.returnOrigin === null ? back : `${state.returnOrigin}${target.pathname}${target.search}`;
      response.writeHead(302, { location }).end();
      return;
    }
    calls.push({ method: request.method ?? '', path, authorization: request.headers.authorization, form });
    const answer = (() => {
      if (request.headers.authorization !== `Bearer ${TEST_PROVIDER_KEY}`)
        return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (state.failing) return json(500, { error: { type: 'api_error', message: 'upstream trouble' } });
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${randomBytes(8).toString('hex')}`;
        hostedPages.set(`/c/pay/${id}`, form.success_url ?? '/');
        return json(200, {
          id,
          object: 'checkout.session',
          mode: form.mode,
          client_reference_id: form.client_reference_id ?? null,
          url: `${url}/c/pay/${id}`,
        });
      }
      if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
        const id = `bps_${randomBytes(8).toString('hex')}`;
        hostedPages.set(`/p/session/${id}`, form.return_url ?? '/');
        return json(200, {
          id,
          object: 'billing_portal.session',
          customer: form.customer,
          return_url: form.return_url,
          url: `${url}/p/session/${id}`,
        });
      }
      return json(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${path})` },
      });
    })();
    response
      .writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
      })
      .end(answer.body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    calls,
    state,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The settings that point the service at a fake provider. */
export function billingEnv(url: string): Record<string, string> {
  return { BILLING_PROVIDER_KEY: TEST_PROVIDER_KEY, BILLING_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, BILLING_API_URL: url };
}

const signer = new Stripe(TEST_PROVIDER_KEY);

/** A `Stripe-Signature` for exactly these bytes, made by the SDK's own test helper. */
export function signPayload(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
  return signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
}

/** A provider event body and its signature. */
export function signEvent(
  event: object,
  options: { secret?: string; timestamp?: number } = {},
): { body: string; signature: string } {
  const body = JSON.stringify(event);
  return { body, signature: signPayload(body, options) };
}

let sequence = 0;
const eventId = () => `evt_test_${randomBytes(6).toString('hex')}_${++sequence}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export function checkoutCompleted(userId: string, customer: string, created = nowSeconds()) {
  return {
    id: eventId(),
    object: 'event',
    type: 'checkout.session.completed',
    created,
    livemode: false,
    data: {
      object: {
        id: `cs_test_${sequence}`,
        object: 'checkout.session',
        mode: 'subscription',
        client_reference_id: userId,
        customer,
        metadata: {},
      },
    },
  };
}

export interface SubscriptionFacts {
  customer: string;
  status?: string;
  plan?: string;
  userId?: string;
  /** Seconds since the epoch. */
  periodEnd?: number;
  created?: number;
}

/** A `customer.subscription.*` event, with the period on the items as the provider's current API versions send it. */
export function subscriptionEvent(type: 'created' | 'updated' | 'deleted', facts: SubscriptionFacts) {
  const created = facts.created ?? nowSeconds();
  const periodEnd = facts.periodEnd ?? created + 30 * 86_400;
  return {
    id: eventId(),
    object: 'event',
    type: `customer.subscription.${type}`,
    created,
    livemode: false,
    data: {
      object: {
        id: `sub_test_${facts.customer}`,
        object: 'subscription',
        customer: facts.customer,
        status: facts.status ?? (type === 'deleted' ? 'canceled' : 'active'),
        metadata: {
          ...(facts.plan !== undefined ? { plan: facts.plan } : {}),
          ...(facts.userId !== undefined ? { user_id: facts.userId } : {}),
        },
        items: {
          object: 'list',
          data: [
            {
              id: 'si_test',
              object: 'subscription_item',
              current_period_start: periodEnd - 30 * 86_400,
              current_period_end: periodEnd,
            },
          ],
        },
      },
    },
  };
}
