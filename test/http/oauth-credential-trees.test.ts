import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeUser, type Person } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import { Client } from '../helpers/client.js';
import {
  authorizeUrl,
  browserFetch,
  connect,
  consent,
  formPost,
  hiddenFields,
  pkce,
  register,
  REDIRECT,
  treeChoice,
} from '../helpers/oauth.js';

/**
 * CONTRACT §16.1 for OAuth: the consent page offers All trees (the default) or a choice of trees,
 * the grant keeps it, refreshes keep it, GET /oauth/connections shows it, and approving the same
 * client again with another choice holds from the very next request of its older tokens.
 */
describe.each(databases)('OAuth grants limited to chosen trees (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let api: string;
  let owner: Person;
  let treeA: string;
  let treeB: string;
  let taskB: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    api = `${t.url}/api/v1`;
    owner = await makeUser(t.url, t.app, { plan: 'sprout' });
    treeA = (await makeTree(owner.browser, { name: 'Orchard <&> "pears"' })).id;
    treeB = (await makeTree(owner.browser, { name: 'Vegetables' })).id;
    taskB = (await makeTask(owner.browser, treeB, { title: 'Plant the leeks' })).id;
  });
  afterAll(async () => t.stop());

  const bearer = (token: string) => new Client(t.url).withBearer(token);
  const connections = async () => (await owner.browser.get('/api/v1/oauth/connections')).body.items as any[];

  it('offers All trees, checked, or a box per tree named as the tree, in a fieldset named Trees', async () => {
    const client = await register(t.url);
    const url = authorizeUrl({ client_id: client.body.client_id, resource: api, challenge: pkce().challenge });
    const page = await browserFetch(owner.browser, url);
    expect(page.status).toBe(200);
    const fieldset = /<fieldset[^>]*><legend>Trees<\/legend>([\s\S]*?)<\/fieldset>/.exec(page.text);
    expect(fieldset).not.toBeNull();
    const inside = fieldset![1]!;
    expect(inside).toMatch(/<input type="radio" name="trees" value="all" checked>\s*<span>All trees/);
    expect(inside).toMatch(/<input type="radio" name="trees" value="chosen">\s*<span>Chosen trees/);
    expect(inside).toContain(
      `<input type="checkbox" name="tree_id" value="${treeA}"> <span>Orchard &lt;&amp;&gt; &quot;pears&quot;</span>`,
    );
    expect(inside).toContain(`<input type="checkbox" name="tree_id" value="${treeB}"> <span>Vegetables</span>`);
    // The fieldset is inside the form that carries the decision.
    expect(page.text.indexOf('<fieldset')).toBeGreaterThan(
      page.text.indexOf('<form method="post" action="/oauth/authorize"'),
    );
    const russian = await browserFetch(owner.browser, `${url}&lang=ru`);
    expect(russian.text).toContain('<legend>Деревья</legend>');
    expect(russian.text).toContain('Все деревья');
  });

  it('keeps the choice on the grant, through refreshes, and shows it in the connections list', async () => {
    const { clientId, tokens } = await connect(t.url, owner.browser, api, { trees: [treeA], clientName: 'Gardener' });
    const agent = bearer(tokens.access_token);
    expect((await agent.get(`/api/v1/trees/${treeA}`)).status).toBe(200);
    expect((await agent.get(`/api/v1/tasks/${taskB}`)).status).toBe(404);
    expect((await agent.get('/api/v1/trees')).body.items.map((x: any) => x.id)).toEqual([treeA]);
    const refreshed = await formPost(t.url, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const again = bearer(refreshed.body.access_token);
    expect((await again.get(`/api/v1/tasks/${taskB}`)).status).toBe(404);
    expect((await again.get(`/api/v1/trees/${treeA}`)).status).toBe(200);
    const listed = (await connections()).find((c) => c.client_id === clientId);
    expect(listed.tree_ids).toEqual([treeA]);
  });

  it('grants every tree by default (tree_ids null), as before', async () => {
    const { clientId, tokens } = await connect(t.url, owner.browser, api);
    expect((await bearer(tokens.access_token).get(`/api/v1/tasks/${taskB}`)).status).toBe(200);
    expect((await connections()).find((c) => c.client_id === clientId).tree_ids).toBeNull();
  });

  it('shows the page again (400) when Chosen trees has no box ticked or names a tree not the user’s, and grants nothing', async () => {
    const stranger = await makeUser(t.url, t.app, { plan: 'sprout' });
    const theirs = (await makeTree(stranger.browser, { name: 'Theirs' })).id;
    const client = await register(t.url);
    const url = authorizeUrl({ client_id: client.body.client_id, resource: api, challenge: pkce().challenge });
    const before = (await connections()).length;
    for (const [ticked, says] of [
      [[], 'Tick at least one tree'],
      [[theirs], 'no longer yours'],
      [[treeA, theirs], 'no longer yours'],
    ] as const) {
      const page = await browserFetch(owner.browser, url);
      const answer = await browserFetch(owner.browser, '/oauth/authorize', {
        method: 'POST',
        form: [...Object.entries(hiddenFields(page.text)), ['decision', 'approve'], ...treeChoice([...ticked])],
      });
      expect(answer.status).toBe(400);
      expect(answer.location).toBeNull();
      expect(answer.text).toContain(says);
      expect(answer.text).toContain('<legend>Trees</legend>');
      // What was chosen stays chosen, so the user only corrects it.
      expect(answer.text).toMatch(/<input type="radio" name="trees" value="chosen" checked>/);
    }
    expect((await connections()).length).toBe(before);
  });

  it('applies a narrowed re-authorization to the client’s older tokens from the very next request', async () => {
    const client = await register(t.url, { client_name: 'Narrowed' });
    const clientId = client.body.client_id as string;
    async function authorize(trees?: string[]) {
      const { verifier, challenge } = pkce();
      const code = (
        await consent(owner.browser, { client_id: clientId, resource: api, challenge }, 'approve', trees)
      ).get('code')!;
      const answer = await formPost(t.url, '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
        resource: api,
      });
      expect(answer.status).toBe(200);
      return bearer(answer.body.access_token);
    }
    const wide = await authorize();
    expect((await wide.get(`/api/v1/tasks/${taskB}`)).status).toBe(200);
    const narrow = await authorize([treeA]);
    expect((await narrow.get(`/api/v1/tasks/${taskB}`)).status).toBe(404);
    // The first grant's token, unchanged, now sees only the new choice too.
    expect((await wide.get(`/api/v1/tasks/${taskB}`)).status).toBe(404);
    expect((await wide.get('/api/v1/trees')).body.items.map((x: any) => x.id)).toEqual([treeA]);
    const mine = (await connections()).filter((c) => c.client_id === clientId);
    expect(mine.map((c) => c.tree_ids)).toEqual([[treeA], [treeA]]);
    // Widening again holds at once as well.
    await authorize();
    expect((await wide.get(`/api/v1/tasks/${taskB}`)).status).toBe(200);
  });
});
