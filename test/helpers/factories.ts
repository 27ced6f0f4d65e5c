import { randomBytes } from 'node:crypto';
import { Client } from './client.js';
import type { App } from '../../src/app.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';
import { verifyEmailByOperator } from '../../src/domain/accounts/email-verification.js';
import type { PlanName } from '../../src/domain/plans.js';

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.test`;
}

export interface Person {
  browser: Client;
  user: { id: string; email: string; [k: string]: unknown };
  email: string;
}

/**
 * A signed-in browser: bootstraps the session and CSRF through /auth/me, then registers.
 * `verified`: the email counts as proven (as `tasktree user verify` does), so invitations to it reach the account.
 */
export async function makeUser(
  baseUrl: string,
  app?: App,
  options: { plan?: PlanName; email?: string; verified?: boolean } = {},
): Promise<Person> {
  const browser = new Client(baseUrl);
  await browser.get('/api/v1/auth/me');
  const email = options.email ?? uniqueEmail();
  const registered = await browser.post('/api/v1/auth/register', { email, password: PASSWORD });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  if (options.plan !== undefined && options.plan !== 'seed') {
    if (app === undefined) throw new Error('a plan needs the app');
    await setUserPlan(app.deps, email, options.plan, null);
  }
  if (options.verified === true) {
    if (app === undefined) throw new Error('verifying needs the app');
    await verifyEmailByOperator(app.deps, email);
    registered.body.user.email_verified = true;
  }
  return { browser, user: registered.body.user, email };
}

/** A personal token made through the REST endpoint; returns a Bearer client and the token record. */
export async function makeToken(
  person: Person,
  input: { name?: string; scopes?: string[]; expires_in_days?: number; tree_ids?: string[] | null } = {},
) {
  const created = await person.browser.post('/api/v1/tokens', { name: input.name ?? 'agent', ...input });
  if (created.status !== 201) throw new Error(`token failed: ${created.status} ${created.text}`);
  return {
    agent: person.browser.withBearer(created.body.value),
    token: created.body.token,
    value: created.body.value as string,
  };
}

/** The token of an invitation's one-time link: the `invite_url` that POST /trees/{id}/members answers with. */
export function inviteToken(invited: { body: { invite_url: string } }): string {
  const token = new URL(invited.body.invite_url).searchParams.get('token');
  if (token === null) throw new Error(`no token in ${invited.body.invite_url}`);
  return token;
}
