import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../helpers/factories.js';
import { Client } from '../helpers/client.js';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';
import {
  billingEnv,
  checkoutCompleted,
  signEvent,
  startFakeBilling,
  subscriptionEvent,
  TEST_PROVIDER_KEY,
  TEST_WEBHOOK_SECRET,
} from '../helpers/fake-billing.js';

/** The real server process: what billing writes to its log, and how a live key stops it. */
describe('billing in the process', () => {
  let dataDir: string;
  let provider: Awaited<ReturnType<typeof startFakeBilling>>;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tasktree-billing-log-'));
    provider = await startFakeBilling();
    server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', ...billingEnv(provider.url) });
  });
  afterAll(async () => {
    await server.stop();
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("logs each event's id, type and outcome, never the key, the webhook secret, signatures or the event body", async () => {
    const person = await makeUser(server.url);
    expect((await person.browser.post('/api/v1/billing/checkout', { plan: 'grove' })).status).toBe(200);
    const customer = 'cus_logmarker';
    const completed = checkoutCompleted(person.user.id, customer);
    (completed.data.object as Record<string, unknown>).customer_details = {
      email: 'payer-marker@example.test',
      name: 'Card Holder Marker',
    };
    const paid = subscriptionEvent('updated', { customer, plan: 'grove' });
    const signatures: string[] = [];
    for (const event of [completed, paid]) {
      const signed = signEvent(event);
      signatures.push(signed.signature);
      const answer = await new Client(server.url).request('POST', '/api/v1/billing/webhook', {
        raw: signed.body,
        headers: { 'stripe-signature': signed.signature },
      });
      expect(answer.body.outcome).toBe('applied');
    }
    const forged = await new Client(server.url).request('POST', '/api/v1/billing/webhook', {
      raw: JSON.stringify(paid),
      headers: { 'stripe-signature': 't=1,v1=forged-marker' },
    });
    expect(forged.body.error.code).toBe('invalid_signature');
    const log = await server.settledLog();
    expect(log).toContain(completed.id);
    expect(log).toContain('customer.subscription.updated');
    const secrets = [
      TEST_PROVIDER_KEY,
      TEST_WEBHOOK_SECRET,
      'fakeprovider',
      ...signatures.map((s) => s.split('v1=')[1]!),
      'forged-marker',
      'payer-marker',
      'Card Holder Marker',
      person.email,
    ];
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
  });

  it('refuses to start with a live key, saying why', async () => {
    const started = spawnServer({
      DATA_DIR: dataDir,
      BILLING_PROVIDER_KEY: 'sk_live_realmoneymarker',
      BILLING_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    });
    const failure = await started.then(
      async (s) => {
        await s.stop();
        return null;
      },
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/BILLING_PROVIDER_KEY is a live key .*test mode only/);
    expect(failure).not.toContain('realmoneymarker');
  });
});
