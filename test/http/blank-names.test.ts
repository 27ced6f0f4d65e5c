import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { connectMcp, toolErrorOf } from '../helpers/mcp.js';
import type { Answer, Client } from '../helpers/client.js';

/** White space only: ASCII, a no-break space, an ideographic space, line breaks and a tab (CONTRACT §18). */
const BLANKS = [' ', '   ', '\t', '\r\n', '\u00a0', '\u3000 \u2003'];

function expectBlankRefused(answer: Answer, path: string): void {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.body.error.code).toBe('validation_failed');
  expect(answer.body.error.details).toContainEqual(
    expect.objectContaining({ path, message: 'must hold a character that is not white space' }),
  );
}

describe.each(databases)('names and titles that are all blank (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let agent: Client;
  let agentToken: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    const made = await makeToken(owner, { scopes: ['read', 'write'] });
    agent = made.agent;
    agentToken = made.value;
  });
  afterAll(async () => t.stop());

  it('refuses blank tree, project and task names on create and on PATCH, and writes nothing', async () => {
    const tree = await makeTree(agent, { name: 'Garden' });
    const project = await makeProject(agent, tree.id, { name: 'Beds' });
    const task = await makeTask(agent, tree.id, { title: 'Water' });
    for (const blank of BLANKS) {
      expectBlankRefused(await agent.post('/api/v1/trees', { name: blank }), '/name');
      expectBlankRefused(await agent.patch(`/api/v1/trees/${tree.id}`, { name: blank }), '/name');
      expectBlankRefused(await agent.post('/api/v1/projects', { tree_id: tree.id, name: blank }), '/name');
      expectBlankRefused(await agent.patch(`/api/v1/projects/${project.id}`, { name: blank }), '/name');
      expectBlankRefused(await agent.post('/api/v1/tasks', { tree_id: tree.id, title: blank }), '/title');
      expectBlankRefused(await agent.patch(`/api/v1/tasks/${task.id}`, { title: blank }), '/title');
    }
    // The browser session is the same door with a cookie.
    expectBlankRefused(await owner.browser.patch(`/api/v1/tasks/${task.id}`, { title: ' ' }), '/title');
    const snapshot = (await agent.get(`/api/v1/trees/${tree.id}`)).body;
    expect(snapshot.tree.name).toBe('Garden');
    expect(snapshot.projects.map((p: { name: string }) => p.name)).toEqual(['Beds']);
    expect(snapshot.tasks.map((x: { title: string }) => x.title)).toEqual(['Water']);
    expect((await agent.get('/api/v1/trees')).body.items).toHaveLength(1);
  });

  it('keeps names with white space around a visible character exactly as sent', async () => {
    const tree = await makeTree(agent, { name: '  Dacha \t' });
    expect(tree.name).toBe('  Dacha \t');
    const project = await makeProject(agent, tree.id, { name: '\u00a0x\u00a0' });
    expect(project.name).toBe('\u00a0x\u00a0');
    const task = await makeTask(agent, tree.id, { title: ' . ' });
    expect(task.title).toBe(' . ');
    const renamed = await agent.patch(`/api/v1/tasks/${task.id}`, { title: '\n  Дача  \n' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.task.title).toBe('\n  Дача  \n');
    // A zero-width space is not white space: it is a character, kept.
    expect((await agent.post('/api/v1/tasks', { tree_id: tree.id, title: '\u200b' })).status).toBe(201);
  });

  it('refuses blank comment and message bodies, new and edited', async () => {
    const tree = await makeTree(agent);
    const task = await makeTask(agent, tree.id);
    const comment = await owner.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: 'Ladder is in the shed' });
    expect(comment.status).toBe(201);
    for (const blank of BLANKS) {
      expectBlankRefused(await owner.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: blank }), '/body');
      expectBlankRefused(
        await owner.browser.patch(`/api/v1/comments/${comment.body.comment.id}`, { body: blank }),
        '/body',
      );
      expectBlankRefused(await owner.browser.post(`/api/v1/trees/${tree.id}/messages`, { body: blank }), '/body');
    }
    const comments = (await owner.browser.get(`/api/v1/tasks/${task.id}/comments`)).body.items;
    expect(comments.map((c: { body: string }) => c.body)).toEqual(['Ladder is in the shed']);
    expect((await owner.browser.get(`/api/v1/trees/${tree.id}/messages`)).body.items).toEqual([]);
  });

  it('refuses a CSV import with a blank title, naming the row, and imports nothing', async () => {
    const tree = await makeTree(agent);
    const answer = await owner.browser.request('POST', `/api/v1/trees/${tree.id}/import`, {
      raw: 'title,notes\r\nFine,\r\n"   ",has notes\r\n',
      contentType: 'text/csv',
    });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
    expect(JSON.stringify(answer.body.error.details)).toContain('must hold a character that is not white space');
    expect(answer.body.error.details).toContainEqual(expect.objectContaining({ row: 3, column: 'title' }));
    expect((await agent.get(`/api/v1/trees/${tree.id}`)).body.tasks).toEqual([]);
  });

  it('refuses a blank title through the MCP tool create_task', async () => {
    const tree = await makeTree(agent);
    const mcp = await connectMcp(t.url, agentToken);
    try {
      for (const blank of [' ', '\u3000']) {
        const answer = await mcp.client.callTool({
          name: 'create_task',
          arguments: { tree_id: tree.id, title: blank },
        });
        const error = toolErrorOf(answer);
        expect(error.code).toBe('validation_failed');
        expect(error.details).toContainEqual(
          expect.objectContaining({ path: '/title', message: 'must hold a character that is not white space' }),
        );
      }
      const fine = await mcp.client.callTool({ name: 'create_task', arguments: { tree_id: tree.id, title: ' ok ' } });
      expect(fine.isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
    expect((await agent.get(`/api/v1/trees/${tree.id}`)).body.tasks.map((x: { title: string }) => x.title)).toEqual([
      ' ok ',
    ]);
  });
});
