import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser, type Person } from '../helpers/factories.js';
import { browserFetch, hiddenFields, REDIRECT } from '../helpers/oauth.js';

type Provider = OAuthClientProvider & {
  callback: URLSearchParams | null;
  saved: { access_token: string; refresh_token?: string } | undefined;
};

/**
 * The agent's side, as an MCP host implements it: it keeps what the SDK hands it, and when the
 * SDK wants the user to authorize, a signed-in browser reads the consent page and submits it
 * (HTML in, form post with the CSRF field and session cookie out), landing on the redirect URI.
 */
function agentProvider(person: Person): Provider {
  let client: any;
  let verifier = '';
  const provider: Provider = {
    callback: null,
    saved: undefined,
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return {
        client_name: 'SDK Agent',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    state: () => 'sdk-state',
    clientInformation: () => client,
    saveClientInformation: (info) => {
      client = info;
    },
    tokens: () => provider.saved as any,
    saveTokens: (tokens) => {
      provider.saved = tokens as any;
    },
    saveCodeVerifier: (value) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
    async redirectToAuthorization(url: URL) {
      const page = await browserFetch(person.browser, url.toString());
      if (page.status !== 200) throw new Error(`consent page ${page.status}: ${page.text}`);
      const answer = await browserFetch(person.browser, '/oauth/authorize', {
        method: 'POST',
        form: { ...hiddenFields(page.text), decision: 'approve' },
      });
      provider.callback = new URL(answer.location!).searchParams;
    },
  };
  return provider;
}

describe.each(databases)('the official MCP SDK client connects through OAuth (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('discovers, registers, is authorized through the consent form, exchanges the code, lists tools and refreshes', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const provider = agentProvider(person);
    const endpoint = new URL('/mcp', t.url);

    const first = new Client({ name: 'sdk-oauth-agent', version: '1.0.0' });
    const unauthorized = await first
      .connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }))
      .catch((err: unknown) => err);
    expect(unauthorized).toBeInstanceOf(UnauthorizedError);
    expect(provider.callback?.get('state')).toBe('sdk-state');
    expect(provider.callback?.get('iss')).toBe(t.url);

    const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await transport.finishAuth(provider.callback!);
    expect(provider.saved?.access_token).toMatch(/^tto_/);
    const agent = new Client({ name: 'sdk-oauth-agent', version: '1.0.0' });
    await agent.connect(transport);
    const tools = (await agent.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('create_task');
    await agent.close();

    // The access token runs out; the SDK meets the 401, refreshes (rotation) and carries on.
    const before = provider.saved!;
    await t.app.deps.db
      .updateTable('oauth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('kind', '=', 'access')
      .execute();
    const later = new Client({ name: 'sdk-oauth-agent', version: '1.0.0' });
    await later.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    expect((await later.listTools()).tools.length).toBe(tools.length);
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
    await later.close();

    const connections = (await person.browser.get('/api/v1/oauth/connections')).body.items;
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({
      client_name: 'SDK Agent',
      resource: `${t.url}/mcp`,
      scopes: ['read', 'write', 'attachments'],
    });
    // The journal names the connection and the app as it registered, not the MCP clientInfo.
    await t.app.deps.journal.flush();
    const calls = (await person.browser.get('/api/v1/agent-calls')).body.items;
    expect(calls.map((call: { operation: string }) => call.operation)).toContain('tools/list');
    for (const call of calls)
      expect(call).toMatchObject({ surface: 'mcp', token_id: connections[0].id, client: 'SDK Agent' });
  });
});
