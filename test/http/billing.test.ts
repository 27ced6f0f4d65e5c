import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import {
  billingEnv,
  checkoutCompleted,
  signEvent,
  startFakeBilling,
  TEST_PROVIDER_KEY,
} from '../helpers/fake-billing.js';
import { planLimits } from '../../src/domain/plans.js';

const webhook = (base: string, body: string, signature?: string) =>
  new Client(base).request('POST', '/api/v1/billing/webhook', {
    raw: body,
    headers: signature === undefined ? {} : { 'stripe-signature': signature },
  });

describe.each(databases)('billing while unconfigured (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('starts, says billing is not configured, and answers 503 billing_unavailable creating nothing', async () => {
    const person = await makeUser(t.url);
    const page = await person.browser.get('/api/v1/billing');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      mode: 'test',
      configured: false,
      plan: 'seed',
      plan_expires_at: null,
      effective_plan: 'seed',
    });
    for (const path of ['/api/v1/billing/checkout', '/api/v1/billing/portal']) {
      const answer = await person.browser.post(path, path.endsWith('checkout') ? { plan: 'sprout' } : undefined);
      expect(answer.status, path).toBe(503);
      expect(answer.body.error.code).toBe('billing_unavailable');
    }
    const signed = signEvent(checkoutCompleted(person.user.id, 'cus_unconfigured'));
    const answer = await webhook(t.url, signed.body, signed.signature);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('billing_unavailable');
    expect(await t.app.deps.db.selectFrom('billing_events').selectAll().execute()).toEqual([]);
    const row = await t.app.deps.db
      .selectFrom('users')
      .select(['billing_customer_id', 'plan'])
      .where('id', '=', person.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ billing_customer_id: null, plan: 'seed' });
  });
});

describe.each(databases)('billing routes (%s)', (kind) => {
  let provider: Awaited<ReturnType<typeof startFakeBilling>>;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    provider = await startFakeBilling();
    t = await startTestApp(kind, {
      ...billingEnv(provider.url),
      PUBLIC_URL: 'https://tasks.example.test',
      BILLING_PRICE_GROVE: '1500',
    });
  });
  afterAll(async () => {
    await t.stop();
    await provider.close();
  });

  it('shows the plans with prices and the limits of plans.ts', async () => {
    const person = await makeUser(t.url);
    const page = await person.browser.get('/api/v1/billing');
    expect(page.status).toBe(200);
    expect(page.body.configured).toBe(true);
    expect(page.body.plans.map((p: any) => [p.id, p.price])).toEqual([
      ['seed', null],
      ['sprout', { amount: 500, currency: 'usd', interval: 'month' }],
      ['grove', { amount: 1500, currency: 'usd', interval: 'month' }],
    ]);
    expect(page.body.plans[2].limits).toEqual({
      agent_writes: true,
      trees: planLimits.grove.trees,
      projects_per_tree: planLimits.grove.projectsPerTree,
      tasks_per_tree: planLimits.grove.tasksPerTree,
      storage_bytes: planLimits.grove.attachmentBytes,
      history_days: planLimits.grove.historyDays,
      transcription: true,
      sharing: true,
    });
    expect(page.body.plans[0].limits).toMatchObject({
      agent_writes: false,
      trees: 3,
      projects_per_tree: 50,
      tasks_per_tree: 500,
      storage_bytes: 104_857_600,
      history_days: 7,
      sharing: false,
    });
  });

  it('is for browser sessions only: signed out 401, Bearer 403 session_required, no CSRF 403', async () => {
    const stranger = new Client(t.url);
    await stranger.get('/api/v1/auth/me');
    expect((await stranger.get('/api/v1/billing')).status).toBe(401);
    expect((await stranger.post('/api/v1/billing/checkout', { plan: 'sprout' })).status).toBe(401);
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const { agent } = await makeToken(person);
    for (const [method, path] of [
      ['GET', '/api/v1/billing'],
      ['POST', '/api/v1/billing/checkout'],
      ['POST', '/api/v1/billing/portal'],
    ] as const) {
      const answer = await agent.request(method, path, method === 'POST' ? { body: { plan: 'sprout' } } : {});
      expect(answer.status, path).toBe(403);
      expect(answer.body.error.code).toBe('session_required');
    }
    const forged = await person.browser.request('POST', '/api/v1/billing/checkout', {
      body: { plan: 'sprout' },
      headers: { 'x-csrf-token': 'forged' },
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('csrf_failed');
    expect((await person.browser.post('/api/v1/billing/checkout', { plan: 'seed' })).status).toBe(400);
    expect((await person.browser.post('/api/v1/billing/checkout', { plan: 'grove', extra: 1 })).status).toBe(400);
    expect(provider.calls.filter((c) => c.form.client_reference_id === person.user.id)).toEqual([]);
  });

  it('opens a subscription checkout with inline price data, the user as client reference and the plan in the metadata', async () => {
    const person = await makeUser(t.url);
    const answer = await person.browser.post('/api/v1/billing/checkout', { plan: 'grove' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.url).toMatch(new RegExp(`^${provider.url}/c/pay/cs_test_`));
    const call = provider.calls.at(-1)!;
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: `Bearer ${TEST_PROVIDER_KEY}`,
    });
    expect(call.form).toMatchObject({
      mode: 'subscription',
      client_reference_id: person.user.id,
      customer_email: person.email,
      'metadata[plan]': 'grove',
      'metadata[user_id]': person.user.id,
      'subscription_data[metadata][plan]': 'grove',
      'subscription_data[metadata][user_id]': person.user.id,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1500',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Task Tree Grove',
      success_url: 'https://tasks.example.test/billing?checkout=success&plan=grove',
      cancel_url: 'https://tasks.example.test/billing?checkout=cancelled',
    });
    expect(Object.keys(call.form).some((key) => key.includes('[price]') || key === 'customer')).toBe(false);
    // Checkout alone changes nothing: only the verified webhook does.
    expect((await person.browser.get('/api/v1/billing')).body.plan).toBe('seed');
  });

  it('answers 409 conflict for the portal before anything was bought, then opens it for the bound customer', async () => {
    const person = await makeUser(t.url);
    const before = provider.calls.length;
    const early = await person.browser.post('/api/v1/billing/portal');
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('conflict');
    expect(provider.calls.length).toBe(before);
    const signed = signEvent(checkoutCompleted(person.user.id, 'cus_portal'));
    expect((await webhook(t.url, signed.body, signed.signature)).body).toEqual({ received: true, outcome: 'applied' });
    const portal = await person.browser.post('/api/v1/billing/portal');
    expect(portal.status, portal.text).toBe(200);
    expect(portal.body.url).toMatch(new RegExp(`^${provider.url}/p/session/bps_`));
    expect(provider.calls.at(-1)).toMatchObject({
      path: '/v1/billing_portal/sessions',
      form: { customer: 'cus_portal', return_url: 'https://tasks.example.test/billing' },
    });
    // A later checkout reuses the customer instead of making a second one.
    expect((await person.browser.post('/api/v1/billing/checkout', { plan: 'sprout' })).status).toBe(200);
    expect(provider.calls.at(-1)!.form).toMatchObject({
      customer: 'cus_portal',
      'line_items[0][price_data][unit_amount]': '500',
    });
    expect(provider.calls.at(-1)!.form.customer_email).toBeUndefined();
  });

  it('answers 503 billing_unavailable when the provider fails, and no key reaches the answer', async () => {
    const person = await makeUser(t.url);
    provider.state.failing = true;
    try {
      const answer = await person.browser.post('/api/v1/billing/checkout', { plan: 'sprout' });
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('billing_unavailable');
      expect(answer.text).not.toContain('sk_test_');
    } finally {
      provider.state.failing = false;
    }
  });
});
