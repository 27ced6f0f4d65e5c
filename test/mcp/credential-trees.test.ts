import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { connectMcp } from '../helpers/mcp.js';
import { TREE_APP_URI } from '../../src/http/mcp/tree-app.js';
import { browserFetch, hiddenFields, REDIRECT, treeChoice } from '../helpers/oauth.js';

/**
 * CONTRACT §16.1 over MCP: a credential limited to chosen trees gets, from every tool and from
 * `service://tree/…`, for any other tree exactly what a foreign id gets; lists and search leave
 * those trees out. Once with a personal token, once with an OAuth grant whose trees were chosen
 * on the consent page by the official SDK client's own OAuth flow.
 */

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(13).toString('hex').slice(0, 26).toUpperCase()}`;
}

/** A tool result, as the agent reads it. */
function seen(result: unknown): string {
  return JSON.stringify(result);
}

/** The SDK's OAuth provider; when asked to authorize, the signed-in browser ticks `trees` on the consent page. */
function agentProvider(person: Person, trees: string[]) {
  let client: any;
  let verifier = '';
  const provider: OAuthClientProvider & { callback: URLSearchParams | null; saved: any } = {
    callback: null,
    saved: undefined,
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return {
        client_name: 'Scoped SDK Agent',
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
    tokens: () => provider.saved,
    saveTokens: (tokens) => {
      provider.saved = tokens;
    },
    saveCodeVerifier: (value) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
    async redirectToAuthorization(url: URL) {
      const page = await browserFetch(person.browser, url.toString());
      if (page.status !== 200) throw new Error(`consent page ${page.status}: ${page.text}`);
      expect(page.text).toContain('<legend>Trees</legend>');
      const answer = await browserFetch(person.browser, '/oauth/authorize', {
        method: 'POST',
        form: [...Object.entries(hiddenFields(page.text)), ['decision', 'approve'], ...treeChoice(trees)],
      });
      provider.callback = new URL(answer.location!).searchParams;
    },
  };
  return provider;
}

/** The official SDK client, authorized through OAuth with the consent page's choice of `trees`. */
async function oauthClient(
  baseUrl: string,
  person: Person,
  trees: string[],
): Promise<{ client: Client; provider: ReturnType<typeof agentProvider> }> {
  const provider = agentProvider(person, trees);
  const endpoint = new URL('/mcp', baseUrl);
  const first = new Client({ name: 'scoped-oauth-agent', version: '1.0.0' });
  const refused = await first
    .connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }))
    .catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(UnauthorizedError);
  const transport = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
  await transport.finishAuth(provider.callback!);
  const client = new Client({ name: 'scoped-oauth-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, provider };
}

describe.each(databases)('tree-scoped credentials over MCP (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let treeA: string;
  let treeB: string;
  let taskA: string;
  let taskB: string;
  let attachmentB: string;
  const clients: Record<string, Client> = {};
  let provider: ReturnType<typeof agentProvider>;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    treeA = (await makeTree(owner.browser, { name: 'Orchard' })).id;
    treeB = (await makeTree(owner.browser, { name: 'Vegetables' })).id;
    taskA = (await makeTask(owner.browser, treeA, { title: 'Prune the pears before the leeks' })).id;
    taskB = (await makeTask(owner.browser, treeB, { title: 'Plant the leeks' })).id;
    const attached = await upload(owner.browser, `/api/v1/tasks/${taskB}/attachments`, [
      { data: Buffer.from('seed list'), name: 'seeds.txt', type: 'text/plain' },
    ]);
    expect(attached.status).toBe(201);
    attachmentB = attached.body.attachment.id;
    const token = await makeToken(owner, { tree_ids: [treeA] });
    clients.token = (await connectMcp(t.url, token.value)).client;
    const oauth = await oauthClient(t.url, owner, [treeA]);
    clients.oauth = oauth.client;
    provider = oauth.provider;
    clients.full = (await connectMcp(t.url, (await makeToken(owner)).value)).client;
  });
  afterAll(async () => {
    for (const client of Object.values(clients)) await client.close().catch(() => undefined);
    await t.stop();
  });

  const calls: { name: string; kind: string; args: (id: string) => Record<string, unknown> }[] = [
    { name: 'list_tasks', kind: 'tre', args: (id) => ({ tree_id: id }) },
    { name: 'search', kind: 'tre', args: (id) => ({ q: 'leeks', tree_id: id }) },
    { name: 'create_task', kind: 'tre', args: (id) => ({ tree_id: id, title: 'Weed' }) },
    { name: 'get_task', kind: 'tsk', args: (id) => ({ id }) },
    { name: 'complete_task', kind: 'tsk', args: (id) => ({ id }) },
    { name: 'transcribe_audio', kind: 'tsk', args: (id) => ({ task_id: id, attachment_id: attachmentB }) },
    { name: 'get_attachment', kind: 'att', args: (id) => ({ id }) },
  ];
  const target = (k: string) => ({ tre: treeB, tsk: taskB, att: attachmentB })[k]!;

  for (const who of ['token', 'oauth'] as const) {
    it(`answers every tool, for a tree outside the ${who}'s trees, exactly as for a foreign id`, async () => {
      const client = clients[who]!;
      for (const call of calls) {
        const real = await client.callTool({ name: call.name, arguments: call.args(target(call.kind)) });
        const foreign = await client.callTool({ name: call.name, arguments: call.args(randomId(call.kind)) });
        expect(seen(real), call.name).toBe(seen(foreign));
        expect(real.isError, call.name).toBe(true);
      }
      // The full token reaches what the scoped ones did not.
      const full = await clients.full!.callTool({ name: 'get_task', arguments: { id: taskB } });
      expect(full.isError).toBeFalsy();
    });

    it(`leaves the trees outside the ${who}'s trees out of lists, search and resources`, async () => {
      const client = clients[who]!;
      const trees = await client.callTool({ name: 'list_trees', arguments: {} });
      expect((trees.structuredContent as any).items.map((x: any) => x.id)).toEqual([treeA]);
      const tasks = await client.callTool({ name: 'list_tasks', arguments: {} });
      expect((tasks.structuredContent as any).items.map((x: any) => x.id)).toEqual([taskA]);
      const found = await client.callTool({ name: 'search', arguments: { q: 'leeks' } });
      expect((found.structuredContent as any).items.map((x: any) => x.id)).toEqual([taskA]);
      const resources = await client.listResources();
      // The MCP App (ui://tasktree/tree.html) holds no data: every credential that reads sees it.
      expect(resources.resources.map((r) => r.uri)).toEqual([TREE_APP_URI, `service://tree/${treeA}`]);
      const readA = await client.readResource({ uri: `service://tree/${treeA}` });
      expect(JSON.parse((readA.contents[0] as any).text).tree.id).toBe(treeA);
      const real = await client.readResource({ uri: `service://tree/${treeB}` }).catch((err: Error) => err);
      const foreignId = randomId('tre');
      const foreign = await client.readResource({ uri: `service://tree/${foreignId}` }).catch((err: Error) => err);
      expect(real).toBeInstanceOf(Error);
      expect(String((real as Error).message).replace(treeB, 'ID')).toBe(
        String((foreign as Error).message).replace(foreignId, 'ID'),
      );
    });
  }

  it('keeps the chosen trees when the SDK refreshes its access token', async () => {
    const before = provider.saved.access_token;
    await t.app.deps.db
      .updateTable('oauth_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('kind', '=', 'access')
      .execute();
    const later = new Client({ name: 'scoped-oauth-agent', version: '1.0.0' });
    await later.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { authProvider: provider }));
    try {
      const trees = await later.callTool({ name: 'list_trees', arguments: {} });
      expect((trees.structuredContent as any).items.map((x: any) => x.id)).toEqual([treeA]);
      expect((await later.callTool({ name: 'get_task', arguments: { id: taskB } })).isError).toBe(true);
      expect(provider.saved.access_token).not.toBe(before);
    } finally {
      await later.close();
    }
  });

  it('shows the grant chosen on the consent page in GET /oauth/connections', async () => {
    const connections = (await owner.browser.get('/api/v1/oauth/connections')).body.items;
    expect(connections.map((c: any) => [c.client_name, c.tree_ids])).toContainEqual(['Scoped SDK Agent', [treeA]]);
  });
});
