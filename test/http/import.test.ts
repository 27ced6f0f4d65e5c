import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeToken, makeUser, type Person } from '../helpers/factories.js';
import { makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import type { Client } from '../helpers/client.js';

function importCsv(client: Client, treeId: string, csv: string | Buffer, query = '') {
  const raw = typeof csv === 'string' ? csv : csv.toString('latin1');
  return client.request('POST', `/api/v1/trees/${treeId}/import${query}`, { raw, contentType: 'text/csv' });
}

describe.each(databases)('CSV import (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let owner: Person;
  let member: Person;

  async function countTasks(treeId: string): Promise<number> {
    return (await owner.browser.get(`/api/v1/trees/${treeId}/export`)).body.tasks.length;
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await makeUser(t.url, t.app, { plan: 'grove' });
    member = await makeUser(t.url, t.app, { plan: 'sprout' });
  });
  afterAll(async () => t.stop());

  it('imports every row with RFC 4180 quoting, a BOM, CRLF, project paths and assignees, as one change', async () => {
    const tree = await makeTree(owner.browser);
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: member.email,
      role: 'editor',
    });
    await member.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const csv =
      '\ufefftitle,notes,status,deadline,color,project,assignee\r\n' +
      `"Prune, then feed","line one\r\nline ""two""",open,2026-12-31,#aa3300,Orchard/Apples,${member.email.toUpperCase()}\r\n` +
      'Rake,,,,,Orchard,\r\n' +
      'Sweep,,done,2026-12-31T10:00:00.5Z,,,\r\n';
    const answer = await importCsv(member.browser, tree.id, csv);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({ created: { projects: 2, tasks: 3 } });
    const snapshot = (await owner.browser.get(`/api/v1/trees/${tree.id}`)).body;
    const orchard = snapshot.projects.find((p: any) => p.name === 'Orchard');
    const apples = snapshot.projects.find((p: any) => p.name === 'Apples');
    expect(apples.parent_id).toBe(orchard.id);
    const [prune, rake, sweep] = snapshot.tasks;
    expect(prune).toMatchObject({
      title: 'Prune, then feed',
      notes: 'line one\r\nline "two"',
      status: 'open',
      deadline: '2026-12-31',
      color: '#aa3300',
      project_id: apples.id,
      assignee_ids: [member.user.id],
      created_by: member.user.id,
    });
    expect(rake).toMatchObject({ title: 'Rake', status: 'todo', project_id: orchard.id, assignee_ids: [] });
    expect(sweep).toMatchObject({ status: 'done', deadline: '2026-12-31T10:00:00.5Z', project_id: null });
    // Existing projects are reused by path: a second import creates none.
    expect((await importCsv(owner.browser, tree.id, 'title,project\nGraft,Orchard/Apples\n')).body.created).toEqual({
      projects: 0,
      tasks: 1,
    });
    const history = (await owner.browser.get(`/api/v1/trees/${tree.id}/history`)).body.items;
    // One `imported` entry per record created (CONTRACT §16.3), each import one change.
    const imports = history.filter((h: any) => h.action === 'imported');
    expect(imports.map((h: any) => h.entity)).toEqual(['task', 'task', 'task', 'task', 'project', 'project']);
    expect(imports[0].changes).toEqual({ title: { from: null, to: 'Graft' }, status: { from: null, to: 'todo' } });
    expect(imports.filter((h: any) => h.entity === 'project').map((h: any) => h.changes.name.to)).toEqual([
      'Apples',
      'Orchard',
    ]);
    expect(new Set(imports.slice(1).map((h: any) => h.change_id)).size).toBe(1);
    expect(imports[0].change_id).not.toBe(imports[1].change_id);
    expect(
      history.filter((h: any) => h.action !== 'imported' && h.entity !== 'member').map((h: any) => h.entity),
    ).toEqual(['tree']);
  });

  it('validates and counts on a dry run without writing anything', async () => {
    const tree = await makeTree(owner.browser);
    const answer = await importCsv(owner.browser, tree.id, 'title,project\nOne,A/B\nTwo,A\n', '?dry_run=true');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ created: { projects: 2, tasks: 2 }, dry_run: true });
    const snapshot = (await owner.browser.get(`/api/v1/trees/${tree.id}`)).body;
    expect([snapshot.projects.length, snapshot.tasks.length]).toEqual([0, 0]);
    expect((await owner.browser.get(`/api/v1/trees/${tree.id}/history`)).body.items.map((h: any) => h.action)).toEqual([
      'created',
    ]);
  });

  it('reports every bad row in one answer, values, assignees and nesting alike, in row order, and writes nothing', async () => {
    const tree = await makeTree(owner.browser);
    const tooDeep = Array.from({ length: 65 }, (_, i) => `P${i + 1}`).join('/');
    const csv = [
      'title,status,deadline,color,project,assignee',
      'Good,todo,,,,',
      ',todo,,,,',
      'Bad status,someday,,,,',
      'Bad deadline,,2026-13-40,,,',
      'Bad color,,,red,,',
      'Good again,,,,,',
      'Nobody,,,,,stranger@example.test',
      `${'x'.repeat(501)},,,,,`,
      `Too deep,,,,${tooDeep},`,
      'Bad twice,someday,,,,someone-else@example.test',
    ].join('\n');
    const answer = await importCsv(owner.browser, tree.id, csv);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
    expect(answer.body.error.details.map((d: any) => [d.row, d.column])).toEqual([
      [3, 'title'],
      [4, 'status'],
      [5, 'deadline'],
      [6, 'color'],
      [8, 'assignee'],
      [9, 'title'],
      [10, 'project'],
      [11, 'status'],
      [11, 'assignee'],
    ]);
    expect(answer.body.error.details[4]).toEqual({
      row: 8,
      column: 'assignee',
      message: 'must be the email of the tree owner or an active member',
    });
    expect(answer.body.error.details[6]).toEqual({
      row: 10,
      column: 'project',
      message: 'would nest projects 65 levels deep; at most 64',
    });
    expect(await countTasks(tree.id)).toBe(0);
    expect((await owner.browser.get(`/api/v1/trees/${tree.id}`)).body.projects).toEqual([]);
  });

  it('refuses malformed files: unclosed quote, wrong width, unknown column, no title, bad UTF-8, empty', async () => {
    const tree = await makeTree(owner.browser);
    const cases: [string | Buffer, number | null, string | null][] = [
      ['title\nfine\n"never closed\n', null, null],
      ['title,notes\nfine,x\nthree,col,umns\n', 3, null],
      ['title,priority\nfine,high\n', 1, 'priority'],
      ['notes\nno title column\n', 1, 'title'],
      [Buffer.concat([Buffer.from('title\nok\n'), Buffer.from([0xff, 0xfe, 0x41]), Buffer.from('\n')]), null, null],
      ['', 1, null],
      ['title\n', 2, null],
    ];
    for (const [csv, row, column] of cases) {
      const answer =
        typeof csv === 'string'
          ? await importCsv(owner.browser, tree.id, csv)
          : await owner.browser.request('POST', `/api/v1/trees/${tree.id}/import`, {
              raw: csv as unknown as string,
              contentType: 'text/csv',
            });
      expect(answer.status, JSON.stringify(csv.toString())).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
      if (row !== null) expect(answer.body.error.details[0].row).toBe(row);
      if (column !== null) expect(answer.body.error.details[0].column).toBe(column);
    }
    expect(await countTasks(tree.id)).toBe(0);
  });

  it('takes a multipart file too, and refuses other content types', async () => {
    const tree = await makeTree(owner.browser);
    const answer = await upload(owner.browser, `/api/v1/trees/${tree.id}/import`, [
      { data: Buffer.from('title\nFrom a form\n'), name: 'tasks.csv', type: 'text/csv' },
    ]);
    expect(answer.status).toBe(201);
    expect(answer.body.created.tasks).toBe(1);
    const json = await owner.browser.post(`/api/v1/trees/${tree.id}/import`, { title: 'x' });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
  });

  it("counts the owner's plan limits for the whole file before writing (Seed: 500 tasks a tree)", async () => {
    const seed = await makeUser(t.url, t.app);
    const tree = await makeTree(seed.browser);
    const rows = Array.from({ length: 501 }, (_, i) => `Task ${i}`).join('\n');
    const answer = await importCsv(seed.browser, tree.id, `title\n${rows}\n`);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('plan_limit_reached');
    expect((await seed.browser.get(`/api/v1/trees/${tree.id}/export`)).body.tasks.length).toBe(0);
    // A Seed token cannot write through the API at all.
    const { agent } = await makeToken(seed, { scopes: ['read'] });
    expect((await importCsv(agent, tree.id, 'title\nx\n')).body.error.code).toBe('insufficient_scope');
  });

  it('refuses more than 10,000 rows or 8 MiB with 413', async () => {
    const tree = await makeTree(owner.browser);
    const many = `title\n${'t\n'.repeat(10_001)}`;
    const rows = await importCsv(owner.browser, tree.id, many);
    expect(rows.status).toBe(413);
    expect(rows.body.error.code).toBe('payload_too_large');
    const big = `title,notes\n${`x,${'y'.repeat(1000)}\n`.repeat(8_500)}`;
    const bytes = await importCsv(owner.browser, tree.id, big);
    expect(bytes.status).toBe(413);
    expect(await countTasks(tree.id)).toBe(0);
  });

  it('lets editors import, refuses viewers (403) and strangers (404)', async () => {
    const tree = await makeTree(owner.browser);
    const viewer = await makeUser(t.url, t.app, { plan: 'sprout' });
    const invited = await owner.browser.post(`/api/v1/trees/${tree.id}/members`, {
      email: viewer.email,
      role: 'viewer',
    });
    await viewer.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, { token: inviteToken(invited) });
    const refused = await importCsv(viewer.browser, tree.id, 'title\nx\n');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    const stranger = await makeUser(t.url, t.app);
    expect((await importCsv(stranger.browser, tree.id, 'title\nx\n')).status).toBe(404);
    expect(await countTasks(tree.id)).toBe(0);
  });

  it("imports the README's example file", async () => {
    const ada = await makeUser(t.url, t.app, { plan: 'grove', email: 'ada@example.com' });
    const tree = await makeTree(ada.browser);
    const example = readFileSync(new URL('../../docs/import-example.csv', import.meta.url), 'utf8');
    const answer = await importCsv(ada.browser, tree.id, example);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.created).toEqual({ projects: 3, tasks: 4 });
  });
});
