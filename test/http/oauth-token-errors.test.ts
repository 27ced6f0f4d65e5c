import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser } from '../helpers/factories.js';
import { connect, consent, formPost, pkce, register, REDIRECT } from '../helpers/oauth.js';

/** RFC 6749 §5.1/§5.2 and RFC 7009 §2: the token and revocation endpoints' answers to every slip. */
describe.each(databases)('OAuth token and revocation errors (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let api: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = `${t.url}/api/v1`;
  });
  afterAll(async () => t.stop());

  /** Every error answer: a JSON RFC 6749 body, never cached (§5.1 asks no-store and Pragma of token answers). */
  function expectOAuthError(answer: Awaited<ReturnType<typeof formPost>>, status: number, error: string, name: string) {
    expect(answer.status, name).toBe(status);
    expect(answer.body, name).toMatchObject({ error });
    expect(typeof answer.body.error_description, name).toBe('string');
    expect(Object.keys(answer.body).sort(), name).toEqual(['error', 'error_description']);
    expect(answer.headers.get('content-type'), name).toContain('application/json');
    expect(answer.headers.get('cache-control'), name).toBe('no-store');
    expect(answer.headers.get('pragma'), name).toBe('no-cache');
  }

  async function freshCode(): Promise<Record<string, string>> {
    const alice = await makeUser(t.url);
    const client = await register(t.url);
    const { verifier, challenge } = pkce();
    const code = (await consent(alice.browser, { client_id: client.body.client_id, resource: api, challenge })).get(
      'code',
    )!;
    return {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.body.client_id as string,
      code_verifier: verifier,
      resource: api,
    };
  }

  it('an unknown client_id is invalid_client (401) on both grants, and leaves the code unspent', async () => {
    const form = await freshCode();
    expectOAuthError(
      await formPost(t.url, '/oauth/token', { ...form, client_id: 'oac_never_registered' }),
      401,
      'invalid_client',
      'code, unknown client',
    );
    expectOAuthError(
      await formPost(t.url, '/oauth/token', { ...form, client_id: `oac_${'x'.repeat(200)}` }),
      401,
      'invalid_client',
      'code, overlong client',
    );
    const tokens = await formPost(t.url, '/oauth/token', form);
    expect(tokens.status).toBe(200);
    expectOAuthError(
      await formPost(t.url, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
        client_id: 'oac_never_registered',
      }),
      401,
      'invalid_client',
      'refresh, unknown client',
    );
    expectOAuthError(
      await formPost(t.url, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: 'ttr_malformed',
        client_id: 'oac_never_registered',
      }),
      401,
      'invalid_client',
      'refresh, unknown client, bad token',
    );
    // The rightful client's refresh token was not spent by those attempts.
    expect(
      (
        await formPost(t.url, '/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.body.refresh_token,
          client_id: form.client_id!,
        })
      ).status,
    ).toBe(200);
  });

  it('a missing parameter is invalid_request, naming it; a repeated one too', async () => {
    const form = await freshCode();
    for (const name of ['code', 'redirect_uri', 'client_id', 'code_verifier']) {
      const { [name]: _left, ...rest } = form;
      const answer = await formPost(t.url, '/oauth/token', rest);
      expectOAuthError(answer, 400, 'invalid_request', `code grant without ${name}`);
      expect(answer.body.error_description).toContain(name);
    }
    for (const name of ['refresh_token', 'client_id']) {
      const answer = await formPost(t.url, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: 'ttr_x',
        client_id: form.client_id!,
        [name]: '',
      });
      expectOAuthError(answer, 400, 'invalid_request', `refresh grant without ${name}`);
    }
    expectOAuthError(await formPost(t.url, '/oauth/token', {}), 400, 'invalid_request', 'no grant_type');
    const repeated = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${new URLSearchParams(form).toString()}&code=ttc_other`,
    });
    expect(repeated.status).toBe(400);
    expect(((await repeated.json()) as { error: string }).error).toBe('invalid_request');
    // None of that spent the code.
    expect((await formPost(t.url, '/oauth/token', form)).status).toBe(200);
  });

  it('an unknown grant type is unsupported_grant_type; a body that is not a form is invalid_request', async () => {
    for (const grant of [
      'password',
      'client_credentials',
      'implicit',
      'urn:ietf:params:oauth:grant-type:device_code',
    ]) {
      expectOAuthError(
        await formPost(t.url, '/oauth/token', { grant_type: grant, client_id: 'x' }),
        400,
        'unsupported_grant_type',
        grant,
      );
    }
    const json = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":"refresh_token"}',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    const code = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=ttc_x&client_id=c&redirect_uri=r&code_verifier=v',
    });
    expect(code.status).toBe(401);
  });

  it('a token answer is never cached: no-store and Pragma no-cache (RFC 6749 §5.1)', async () => {
    const answer = await formPost(t.url, '/oauth/token', await freshCode());
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
    expect(answer.headers.get('content-type')).toContain('application/json');
  });

  it('revocation: 200 for unknown tokens and any hint, invalid_request without a token, invalid_client for an unknown client_id', async () => {
    const alice = await makeUser(t.url);
    const one = await connect(t.url, alice.browser, api);
    expectOAuthError(
      await formPost(t.url, '/oauth/revoke', { client_id: one.clientId }),
      400,
      'invalid_request',
      'no token',
    );
    expectOAuthError(
      await formPost(t.url, '/oauth/revoke', { token: one.tokens.access_token, client_id: 'oac_never_registered' }),
      401,
      'invalid_client',
      'unknown client',
    );
    const stillLive = await fetch(`${t.url}/api/v1/trees`, {
      headers: { authorization: `Bearer ${one.tokens.access_token}` },
    });
    expect(stillLive.status).toBe(200);
    // §2.1: an unknown hint is ignored, and a wrong one does not stop the search.
    const hinted = await formPost(t.url, '/oauth/revoke', {
      token: one.tokens.access_token,
      token_type_hint: 'refresh_token',
      client_id: one.clientId,
    });
    expect(hinted.status).toBe(200);
    expect(
      (await fetch(`${t.url}/api/v1/trees`, { headers: { authorization: `Bearer ${one.tokens.access_token}` } }))
        .status,
    ).toBe(401);
    expect(
      (await formPost(t.url, '/oauth/revoke', { token: 'ttr_unknown', token_type_hint: 'something_else' })).status,
    ).toBe(200);
    const json = await fetch(`${t.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"token":"x"}',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
  });
});
