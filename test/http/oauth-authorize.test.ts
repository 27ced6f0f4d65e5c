import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser, PASSWORD } from '../helpers/factories.js';
import { Client } from '../helpers/client.js';
import { authorizeUrl, browserFetch, consent, hiddenFields, pkce, register, REDIRECT } from '../helpers/oauth.js';

describe.each(databases)('OAuth authorization: login, consent and refusals (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let mcp: string;
  let clientId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    mcp = `${t.url}/mcp`;
    clientId = (await register(t.url, { client_name: '<script>alert("pwn")</script> & Co' })).body.client_id;
  });
  afterAll(async () => t.stop());

  const grants = async () => (await t.app.deps.db.selectFrom('oauth_grants').select('id').execute()).length;

  it('shows an error page, never a redirect, for an unknown client, a URL client id or an unregistered redirect URI', async () => {
    const browser = (await makeUser(t.url)).browser;
    const { challenge } = pkce();
    for (const [name, url] of [
      ['unknown client', authorizeUrl({ client_id: 'oac_unknown', resource: mcp, challenge })],
      [
        'metadata document',
        authorizeUrl({ client_id: 'https://agent.example.test/client.json', resource: mcp, challenge }),
      ],
      [
        'foreign redirect',
        authorizeUrl({ client_id: clientId, resource: mcp, challenge, redirect_uri: 'https://evil.example.test/cb' }),
      ],
      [
        'other path on loopback',
        authorizeUrl({
          client_id: clientId,
          resource: mcp,
          challenge,
          redirect_uri: 'http://127.0.0.1:43210/elsewhere',
        }),
      ],
    ] as const) {
      const page = await browserFetch(browser, url);
      expect(page.status, name).toBe(400);
      expect(page.location, name).toBeNull();
      expect(page.headers.get('content-type'), name).toContain('text/html');
    }
  });

  it('matches a loopback redirect URI on any port (RFC 8252)', async () => {
    const browser = (await makeUser(t.url)).browser;
    const page = await browserFetch(
      browser,
      authorizeUrl({
        client_id: clientId,
        resource: mcp,
        challenge: pkce().challenge,
        redirect_uri: 'http://127.0.0.1:5999/callback',
      }),
    );
    expect(page.status).toBe(200);
  });

  it('redirects every other error to the client with error, state and iss', async () => {
    const browser = (await makeUser(t.url)).browser;
    const { challenge } = pkce();
    const cases: [string, string, string][] = [
      [
        'plain PKCE',
        authorizeUrl({ client_id: clientId, resource: mcp, challenge }, { code_challenge_method: 'plain' }),
        'invalid_request',
      ],
      ['no PKCE', authorizeUrl({ client_id: clientId, resource: mcp, challenge: '' }), 'invalid_request'],
      ['no resource', authorizeUrl({ client_id: clientId, resource: '', challenge }), 'invalid_target'],
      ['inexact resource', authorizeUrl({ client_id: clientId, resource: `${mcp}/`, challenge }), 'invalid_target'],
      [
        'foreign resource',
        authorizeUrl({ client_id: clientId, resource: 'https://other.example.test/mcp', challenge }),
        'invalid_target',
      ],
      [
        'openid',
        authorizeUrl({ client_id: clientId, resource: mcp, challenge, scope: 'openid read' }),
        'invalid_scope',
      ],
      [
        'unknown scope',
        authorizeUrl({ client_id: clientId, resource: mcp, challenge, scope: 'admin' }),
        'invalid_scope',
      ],
      [
        'token response',
        authorizeUrl({ client_id: clientId, resource: mcp, challenge }, { response_type: 'token' }),
        'unsupported_response_type',
      ],
    ];
    for (const [name, url, error] of cases) {
      const answer = await browserFetch(browser, url);
      expect(answer.status, name).toBe(302);
      const location = new URL(answer.location!);
      expect(`${location.origin}${location.pathname}`, name).toBe(REDIRECT);
      expect(location.searchParams.get('error'), name).toBe(error);
      expect(location.searchParams.get('state'), name).toBe('st-123');
      expect(location.searchParams.get('iss'), name).toBe(t.url);
      expect(location.searchParams.get('code'), name).toBeNull();
    }
    expect(await grants()).toBe(0);
  });

  it('sends a visitor to the server-rendered /login, then back to consent, without JavaScript', async () => {
    const person = await makeUser(t.url);
    const visitor = new Client(t.url);
    const url = authorizeUrl({ client_id: clientId, resource: mcp, challenge: pkce().challenge });
    const first = await browserFetch(visitor, url);
    expect(first.status).toBe(302);
    expect(first.location).toBe(`/login?return_to=${encodeURIComponent(url)}`);
    const login = await browserFetch(visitor, first.location!);
    expect(login.status).toBe(200);
    expect(login.text).toContain('<form method="post" action="/login"');
    expect(login.text).not.toContain('<script');
    const fields = hiddenFields(login.text);
    const wrong = await browserFetch(visitor, '/login', {
      method: 'POST',
      form: { ...fields, email: person.email, password: 'wrong password!' },
    });
    expect(wrong.status).toBe(401);
    const forged = await browserFetch(visitor, '/login', {
      method: 'POST',
      form: { return_to: fields.return_to!, email: person.email, password: PASSWORD },
    });
    expect(forged.status).toBe(403);
    const signedIn = await browserFetch(visitor, '/login', {
      method: 'POST',
      form: { ...fields, email: person.email, password: PASSWORD },
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(url);
    const page = await browserFetch(visitor, signedIn.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain(person.email);
    // return_to only leads back into the flow: never an open redirect.
    const elsewhere = await browserFetch(visitor, '/login?return_to=https://evil.example.test/');
    expect(elsewhere.location ?? '').not.toContain('evil');
  });

  it('serves consent unframeable, with every client string escaped, and the Seed plan dropping write', async () => {
    const browser = (await makeUser(t.url)).browser;
    const page = await browserFetch(
      browser,
      authorizeUrl({ client_id: clientId, resource: mcp, challenge: pkce().challenge, scope: 'read write' }),
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // No script at all, and styles only from our origin (the app's built stylesheet): nothing inline.
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("style-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(page.text).not.toMatch(/<script|<style|style=/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;pwn&quot;)&lt;/script&gt; &amp; Co');
    expect(page.text).toContain('Seed plan');
    expect(page.text).toContain(mcp);
    expect(hiddenFields(page.text).csrf).toBeTruthy();
  });

  it('speaks Russian to a Russian user and to a Russian browser', async () => {
    const person = await makeUser(t.url);
    await person.browser.patch('/api/v1/auth/profile', { language: 'ru' });
    const page = await browserFetch(
      person.browser,
      authorizeUrl({ client_id: clientId, resource: mcp, challenge: pkce().challenge }),
    );
    expect(page.text).toContain('Разрешить');
    expect(page.text).toContain('<html lang="ru">');
    const login = await browserFetch(new Client(t.url), '/login', {
      headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' },
    });
    expect(login.text).toContain('Войти');
    const english = await browserFetch(new Client(t.url), '/login', {
      headers: { 'accept-language': 'de-DE,en;q=0.5' },
    });
    expect(english.text).toContain('Sign in');
    const untrusted = await browserFetch(
      new Client(t.url),
      authorizeUrl({ client_id: 'oac_unknown', resource: mcp, challenge: pkce().challenge }),
      { headers: { 'accept-language': 'ru' } },
    );
    expect(untrusted.status).toBe(400);
    expect(untrusted.text).toContain('не зарегистрировано');
  });

  it('switches language with the page’s own links, and keeps the choice from /login through to consent', async () => {
    const person = await makeUser(t.url);
    const visitor = new Client(t.url);
    const url = authorizeUrl({ client_id: clientId, resource: mcp, challenge: pkce().challenge });
    const login = await browserFetch(visitor, `/login?return_to=${encodeURIComponent(url)}`);
    const toRussian = /<a class="navlink" href="([^"]+)" lang="ru"/.exec(login.text)?.[1]?.replace(/&amp;/g, '&');
    expect(toRussian).toBeDefined();
    const russian = await browserFetch(visitor, toRussian!);
    expect(russian.text).toContain('<html lang="ru">');
    const fields = hiddenFields(russian.text);
    expect(fields).toMatchObject({ lang: 'ru', return_to: url });
    const signedIn = await browserFetch(visitor, '/login', {
      method: 'POST',
      form: { ...fields, email: person.email, password: PASSWORD },
    });
    expect(signedIn.status).toBe(303);
    // An English account that chose Russian on the page gets Russian consent.
    const consentPage = await browserFetch(visitor, signedIn.location!);
    expect(consentPage.status).toBe(200);
    expect(consentPage.text).toContain('Разрешить');
    expect(hiddenFields(consentPage.text).lang).toBe('ru');
    const back = await browserFetch(visitor, `${url}&lang=en`);
    expect(back.text).toContain('<html lang="en">');
    expect((await browserFetch(visitor, `${url}&lang=xx`)).text).toContain('<html lang="en">');
  });

  it('refuses a forged consent post without the CSRF field, or with another session’s, and grants nothing', async () => {
    const alice = await makeUser(t.url);
    const mallory = await makeUser(t.url);
    const before = await grants();
    const page = await browserFetch(
      alice.browser,
      authorizeUrl({ client_id: clientId, resource: mcp, challenge: pkce().challenge }),
    );
    const { csrf, ...fields } = hiddenFields(page.text);
    const bare = await browserFetch(alice.browser, '/oauth/authorize', {
      method: 'POST',
      form: { ...fields, decision: 'approve' },
    });
    expect(bare.status).toBe(403);
    expect(bare.location).toBeNull();
    const malloryPage = await browserFetch(
      mallory.browser,
      authorizeUrl({ client_id: clientId, resource: mcp, challenge: pkce().challenge }),
    );
    const foreign = await browserFetch(alice.browser, '/oauth/authorize', {
      method: 'POST',
      form: { ...fields, csrf: hiddenFields(malloryPage.text).csrf!, decision: 'approve' },
    });
    expect(foreign.status).toBe(403);
    expect(csrf).toBeTruthy();
    expect(await grants()).toBe(before);
  });

  it('redirects a denial with access_denied and grants nothing', async () => {
    const browser = (await makeUser(t.url)).browser;
    const before = await grants();
    const answer = await consent(
      browser,
      { client_id: clientId, resource: mcp, challenge: pkce().challenge, state: 'deny-state' },
      'deny',
    );
    expect(answer.get('error')).toBe('access_denied');
    expect(answer.get('state')).toBe('deny-state');
    expect(answer.get('iss')).toBe(t.url);
    expect(await grants()).toBe(before);
  });

  it('approves with a single code bound to state and iss', async () => {
    const browser = (await makeUser(t.url)).browser;
    const answer = await consent(browser, {
      client_id: clientId,
      resource: mcp,
      challenge: pkce().challenge,
      state: 'xyz',
    });
    expect(answer.get('code')).toMatch(/^ttc_/);
    expect(answer.get('state')).toBe('xyz');
    expect(answer.get('iss')).toBe(t.url);
  });
});
