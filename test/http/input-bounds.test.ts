import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor } from '../../src/domain/actor.js';
import { createTask, getTask } from '../../src/domain/trees/tasks.js';
import { createTree } from '../../src/domain/trees/trees.js';
import { searchTasks } from '../../src/domain/trees/search.js';
import { getAttachment } from '../../src/domain/files/attachments.js';
import { DomainError } from '../../src/domain/errors.js';

const NUL = '\u0000';

/** The code a domain call fails with, or 'ok'. */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

/** One request written by hand: fetch refuses to send a NUL in a header, a real client may still try. */
function rawRequest(port: number, lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** Issue 13 point 4: NUL bytes and integers past int4 are 400 at the door and in the domain, never a 500 from the store. */
describe.each(databases)('NUL bytes and integer bounds (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Person;
  let agent: Client;
  let token: string;
  let tree: { id: string };
  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    const made = await makeToken(alice);
    agent = made.agent;
    token = made.value;
    tree = await makeTree(agent);
  });
  afterAll(async () => t.stop());

  function expectInvalid(answer: { status: number; body: any }, path: string, what: string): void {
    expect(answer.status, what).toBe(400);
    expect(answer.body.error.code, what).toBe('validation_failed');
    expect(answer.body.error.details[0].path, what).toBe(path);
  }

  it('refuses NUL in body fields of every kind', async () => {
    const task = await makeTask(agent, tree.id);
    expectInvalid(await agent.post('/api/v1/tasks', { tree_id: tree.id, title: `a${NUL}b` }), '/title', 'task title');
    expectInvalid(
      await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'ok', notes: `n${NUL}` }),
      '/notes',
      'task notes',
    );
    expectInvalid(await agent.patch(`/api/v1/tasks/${task.id}`, { text: NUL }), '/text', 'task text');
    expectInvalid(
      await agent.post('/api/v1/tasks', { tree_id: `${tree.id}${NUL}`, title: 'ok' }),
      '/tree_id',
      'tree_id in a body',
    );
    expectInvalid(await agent.post('/api/v1/trees', { name: `tree${NUL}` }), '/name', 'tree name');
    expectInvalid(
      await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'p', description: NUL }),
      '/description',
      'project description',
    );
    expectInvalid(await alice.browser.post('/api/v1/tokens', { name: `t${NUL}` }), '/name', 'token name');
    expectInvalid(await alice.browser.patch('/api/v1/auth/profile', { name: `Al${NUL}ice` }), '/name', 'profile name');
    const listed = await agent.get(`/api/v1/tasks?tree_id=${tree.id}`);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([task.id]);
  });

  it('refuses NUL in path ids, filters and search terms', async () => {
    expectInvalid(await agent.get('/api/v1/projects/prj_x%00y'), '/id', 'project id in the path');
    expectInvalid(await agent.get('/api/v1/tasks/%00'), '/id', 'task id in the path');
    expectInvalid(await agent.get('/api/v1/tasks?tree_id=tre_%00'), '/tree_id', 'tree_id filter');
    expectInvalid(await agent.get('/api/v1/projects?tree_id=%00tre'), '/tree_id', 'tree_id filter of projects');
    expectInvalid(await agent.get('/api/v1/search?q=a%00b'), '/q', 'search term');
    expectInvalid(await agent.get(`/api/v1/search?q=a&tree_id=${tree.id}%00`), '/tree_id', 'search filter');
    expectInvalid(
      await agent.get('/api/v1/trees?updated_since=2026-01-01T00:00:00Z%00'),
      '/updated_since',
      'updated_since',
    );
  });

  it('refuses NUL in X-Service-User and Idempotency-Key before anything is written', async () => {
    const port = Number(new URL(t.url).port);
    const body = JSON.stringify({ name: 'guarded' });
    for (const header of [`X-Service-User: ${alice.user.id}${NUL}`, `Idempotency-Key: key-0001${NUL}x`]) {
      const answer = await rawRequest(port, [
        'POST /api/v1/trees HTTP/1.1',
        'Host: 127.0.0.1',
        `Authorization: Bearer ${token}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
        header,
        'Connection: close',
        '',
        body,
      ]);
      // Node's HTTP parser refuses a NUL in any header before the app sees it; the schema rule
      // (x-no-nul on every header string) stands behind it for transports that let one through.
      expect(answer.split('\r\n')[0], header).toMatch(/^HTTP\/1\.1 400 /);
    }
    const trees = await agent.get('/api/v1/trees');
    expect(trees.body.items.map((item: { name: string }) => item.name)).not.toContain('guarded');
  });

  it('bounds position to int4: 2147483647 is kept, 2147483648 is 400', async () => {
    const max = 2_147_483_647;
    const task = await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'far', position: max });
    expect(task.status).toBe(201);
    expect(task.body.task.position).toBe(max);
    expectInvalid(
      await agent.post('/api/v1/tasks', { tree_id: tree.id, title: 'too far', position: max + 1 }),
      '/position',
      'task position',
    );
    expectInvalid(
      await agent.patch(`/api/v1/tasks/${task.body.task.id}`, { position: 1e300 }),
      '/position',
      'task position patch',
    );
    const project = await agent.post('/api/v1/projects', { tree_id: tree.id, name: 'far', position: max });
    expect(project.status).toBe(201);
    expectInvalid(
      await agent.patch(`/api/v1/projects/${project.body.project.id}`, { position: max + 1 }),
      '/position',
      'project position',
    );
    expectInvalid(await agent.get('/api/v1/tasks?limit=2147483648'), '/limit', 'limit');
    expect((await agent.get(`/api/v1/tasks/${task.body.task.id}`)).body.task.position).toBe(max);
    // "After the last sibling" stays inside the column when the last one sits at the top.
    expect((await makeTask(agent, tree.id)).position).toBe(max);
    expect((await makeProject(agent, tree.id)).position).toBe(max);
  });

  it('refuses the same in the domain, for the CLI and MCP', async () => {
    const actor = userActor(await getUserByEmail(t.app.deps, alice.email), 'cli');
    const deps = t.app.deps;
    expect(await outcome(createTask(deps, actor, { tree_id: tree.id, title: `x${NUL}` }))).toBe('validation_failed');
    expect(await outcome(createTask(deps, actor, { tree_id: tree.id, title: 'x', notes: NUL }))).toBe(
      'validation_failed',
    );
    expect(await outcome(createTask(deps, actor, { tree_id: tree.id, title: 'x', position: 2_147_483_648 }))).toBe(
      'validation_failed',
    );
    expect(await outcome(createTask(deps, actor, { tree_id: tree.id, title: 'x', position: 2_147_483_647 }))).toBe(
      'ok',
    );
    expect(await outcome(createTask(deps, actor, { tree_id: `${tree.id}${NUL}`, title: 'x' }))).toBe('not_found');
    expect(await outcome(createTree(deps, actor, { name: `t${NUL}` }))).toBe('validation_failed');
    expect(await outcome(searchTasks(deps, actor, { q: `a${NUL}` }))).toBe('validation_failed');
    expect(await outcome(searchTasks(deps, actor, { q: 'a', tree_id: NUL }))).toBe('not_found');
    expect(await outcome(getTask(deps, actor, `tsk_${NUL}`))).toBe('not_found');
    expect(await outcome(getAttachment(deps, actor, `att_${NUL}`))).toBe('validation_failed');
  });
});
