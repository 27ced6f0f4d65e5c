import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import {
  billingEnv,
  checkoutCompleted,
  signEvent,
  signPayload,
  startFakeBilling,
  subscriptionEvent,
} from '../helpers/fake-billing.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe.each(databases)('billing webhook (%s)', (kind) => {
  let provider: Awaited<ReturnType<typeof startFakeBilling>>;
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    provider = await startFakeBilling();
    t = await startTestApp(kind, billingEnv(provider.url));
  });
  afterAll(async () => {
    await t.stop();
    await provider.close();
  });

  const post = (body: string, headers: Record<string, string> = {}, contentType = 'application/json') =>
    new Client(t.url).request('POST', '/api/v1/billing/webhook', { raw: body, contentType, headers });
  const deliver = (event: object, options: { secret?: string; timestamp?: number } = {}) => {
    const signed = signEvent(event, options);
    return post(signed.body, { 'stripe-signature': signed.signature });
  };
  const planOf = async (person: Person) => (await person.browser.get('/api/v1/billing')).body;
  const eventCount = async () => (await t.app.deps.db.selectFrom('billing_events').selectAll().execute()).length;

  it("a full purchase: checkout, checkout.session.completed, subscription updated, and the user's token can write at once", async () => {
    const person = await makeUser(t.url);
    const seedToken = await person.browser.post('/api/v1/tokens', { name: 'agent', scopes: ['read', 'write'] });
    expect(seedToken.body.error.code).toBe('plan_read_only');
    const { agent: reader } = await makeToken(person, { name: 'reader', scopes: ['read'] });
    expect((await reader.get('/api/v1/trees')).status).toBe(200);

    expect((await person.browser.post('/api/v1/billing/checkout', { plan: 'sprout' })).status).toBe(200);
    const customer = `cus_${person.user.id}`;
    expect((await deliver(checkoutCompleted(person.user.id, customer))).body).toEqual({
      received: true,
      outcome: 'applied',
    });
    expect((await planOf(person)).plan).toBe('seed');
    const periodEnd = now() + 30 * DAY;
    const paid = await deliver(subscriptionEvent('updated', { customer, plan: 'sprout', periodEnd }));
    expect(paid.status).toBe(200);
    expect(paid.body.outcome).toBe('applied');
    expect(await planOf(person)).toMatchObject({
      plan: 'sprout',
      effective_plan: 'sprout',
      plan_expires_at: iso(periodEnd),
    });
    expect((await person.browser.get('/api/v1/auth/me')).body.user).toMatchObject({
      plan: 'sprout',
      plan_expires_at: iso(periodEnd),
    });

    const { agent } = await makeToken(person, { name: 'writer' });
    const tree = await agent.post('/api/v1/trees', { name: 'Bought' });
    expect(tree.status, tree.text).toBe(201);
  });

  it("binds by the subscription metadata when its events arrive before checkout's, and ignores unknown customers with 200", async () => {
    const person = await makeUser(t.url);
    const customer = `cus_early_${person.user.id}`;
    expect(
      (await deliver(subscriptionEvent('created', { customer, plan: 'grove', userId: person.user.id }))).body.outcome,
    ).toBe('applied');
    expect((await planOf(person)).plan).toBe('grove');
    expect((await deliver(checkoutCompleted(person.user.id, customer))).body.outcome).toBe('applied');

    const before = await planOf(person);
    const stray = await deliver(subscriptionEvent('updated', { customer: 'cus_nobody', plan: 'grove' }));
    expect(stray.status).toBe(200);
    expect(stray.body.outcome).toBe('ignored');
    // Metadata naming an account bound to another customer does not take it over.
    const hijack = await deliver(subscriptionEvent('deleted', { customer: 'cus_other', userId: person.user.id }));
    expect(hijack.body.outcome).toBe('ignored');
    expect(await planOf(person)).toEqual(before);
    expect(
      (
        await deliver({
          id: `evt_unknown_${person.user.id}`,
          object: 'event',
          type: 'invoice.paid',
          created: now(),
          data: { object: {} },
        })
      ).body,
    ).toEqual({ received: true, outcome: 'ignored' });
  });

  it('applies a redelivered event once, also when the copies arrive at the same moment', async () => {
    const person = await makeUser(t.url);
    const customer = `cus_dup_${person.user.id}`;
    await deliver(checkoutCompleted(person.user.id, customer));
    const event = subscriptionEvent('updated', { customer, plan: 'sprout' });
    const signed = signEvent(event);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(signed.body, { 'stripe-signature': signed.signature })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.outcome === 'applied')).toHaveLength(1);
    expect(answers.filter((a) => a.body.outcome === 'duplicate')).toHaveLength(5);
    // The operator sets another plan; a later redelivery of the old event must not undo it.
    await setUserPlan(t.app.deps, person.email, 'grove', null);
    expect((await deliver(event)).body.outcome).toBe('duplicate');
    expect((await planOf(person)).plan).toBe('grove');
    const rows = await t.app.deps.db.selectFrom('billing_events').selectAll().where('id', '=', event.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'customer.subscription.updated',
      user_id: person.user.id,
      outcome: 'applied',
    });
  });

  it('never lets an older event roll back a newer state', async () => {
    const person = await makeUser(t.url);
    const customer = `cus_order_${person.user.id}`;
    await deliver(checkoutCompleted(person.user.id, customer));
    const t0 = now() - 600;
    const newer = subscriptionEvent('updated', {
      customer,
      plan: 'grove',
      created: t0 + 120,
      periodEnd: t0 + 60 * DAY,
    });
    const older = subscriptionEvent('updated', {
      customer,
      plan: 'sprout',
      created: t0 + 60,
      periodEnd: t0 + 30 * DAY,
    });
    const oldest = subscriptionEvent('deleted', { customer, created: t0 });
    expect((await deliver(newer)).body.outcome).toBe('applied');
    expect((await deliver(older)).body.outcome).toBe('ignored');
    expect((await deliver(oldest)).body.outcome).toBe('ignored');
    expect(await planOf(person)).toMatchObject({ plan: 'grove', plan_expires_at: iso(t0 + 60 * DAY) });
  });

  it('lets `plan set` win until the next verified billing event', async () => {
    const person = await makeUser(t.url);
    const customer = `cus_cli_${person.user.id}`;
    await deliver(checkoutCompleted(person.user.id, customer));
    await deliver(subscriptionEvent('updated', { customer, plan: 'sprout', created: now() - 60 }));
    await setUserPlan(t.app.deps, person.email, 'grove', null);
    expect((await planOf(person)).plan).toBe('grove');
    expect(
      (await deliver(subscriptionEvent('updated', { customer, plan: 'sprout', created: now() }))).body.outcome,
    ).toBe('applied');
    expect((await planOf(person)).plan).toBe('sprout');
  });

  it('refuses missing, bad, foreign and old signatures with 400 invalid_signature, changing nothing', async () => {
    const person = await makeUser(t.url);
    const event = checkoutCompleted(person.user.id, `cus_sig_${person.user.id}`);
    const body = JSON.stringify(event);
    const before = await eventCount();
    const tries = [
      await post(body),
      await post(body, { 'stripe-signature': 't=1,v1=deadbeef' }),
      await post(body, { 'stripe-signature': 'garbage' }),
      await deliver(event, { secret: 'whsec_someoneelse' }),
      await deliver(event, { timestamp: now() - 301 }),
      // A body changed after signing.
      await post(body.replace('cus_sig', 'cus_evil'), { 'stripe-signature': signEvent(event).signature }),
    ];
    for (const answer of tries) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error.code).toBe('invalid_signature');
    }
    expect(await eventCount()).toBe(before);
    const row = await t.app.deps.db
      .selectFrom('users')
      .select('billing_customer_id')
      .where('id', '=', person.user.id)
      .executeTakeFirstOrThrow();
    expect(row.billing_customer_id).toBeNull();
    // Within the tolerance it is accepted.
    expect((await deliver(event, { timestamp: now() - 200 })).body.outcome).toBe('applied');
  });

  it('answers bodies that are not JSON and huge bodies with a clear error', async () => {
    const before = await eventCount();
    const text = 'plan=grove&user=me';
    const form = await post(
      text,
      { 'stripe-signature': signPayload(text, { secret: 'whsec_someoneelse' }) },
      'application/x-www-form-urlencoded',
    );
    expect(form.body.error.code).toBe('invalid_signature');
    // Signed with the right secret yet not JSON: the signature holds, the body cannot be read.
    const notJson = '{"id": "evt_broken", ';
    const broken = await post(notJson, { 'stripe-signature': signPayload(notJson) });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('invalid_json');
    const signature = signPayload('{}');
    const huge = await post(JSON.stringify({ id: 'evt_huge', padding: 'x'.repeat(2 * 1024 * 1024) }), {
      'stripe-signature': signature,
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    expect(await eventCount()).toBe(before);
  });

  it('cancellation returns the owner to Seed: nothing is deleted, tokens stop writing, members lose the shared tree at once', async () => {
    const owner = await makeUser(t.url);
    const customer = `cus_cancel_${owner.user.id}`;
    await deliver(checkoutCompleted(owner.user.id, customer));
    await deliver(subscriptionEvent('created', { customer, plan: 'grove', created: now() - 10 }));
    const { agent } = await makeToken(owner);
    const tree = await makeTree(agent, { name: 'Shared orchard' });
    await makeTask(agent, tree.id, { title: 'Pick apples' });
    const member = await makeUser(t.url);
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: member.email,
      role: 'viewer',
    });
    expect(invited.status, invited.text).toBe(201);
    await member.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    expect((await member.browser.get(`/api/v1/trees/${tree.id}`)).status).toBe(200);
    expect((await agent.post('/api/v1/trees', { name: 'while paid' })).status).toBe(201);

    expect((await deliver(subscriptionEvent('deleted', { customer }))).body.outcome).toBe('applied');
    expect(await planOf(owner)).toMatchObject({ plan: 'seed', plan_expires_at: null, effective_plan: 'seed' });
    const write = await agent.post('/api/v1/trees', { name: 'after cancel' });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('plan_read_only');
    expect((await member.browser.get(`/api/v1/trees/${tree.id}`)).status).toBe(404);
    const own = await owner.browser.get(`/api/v1/trees/${tree.id}`);
    expect(own.status).toBe(200);
    expect(own.body.tasks).toHaveLength(1);
    expect((await agent.get('/api/v1/trees')).body.items).toHaveLength(2);
  });
});
