import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';
import type { Client } from '../helpers/client.js';

describe.each(databases)('search (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let agent: Client;
  let other: Client;
  let tree: any;
  const made: Record<string, any> = {};
  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
    other = (await makeToken(await makeUser(t.url, t.app, { plan: 'sprout' }))).agent;
    tree = await makeTree(agent);
    const fixtures: Record<string, Record<string, string>> = {
      hello: { title: 'Скажи привет миру' },
      percent: { title: 'Discount 100% off', text: 'under_score here' },
      quotes: { title: 'say "hi" now', notes: 'a NEAR b OR c' },
      split: { title: 'alpha', text: 'beta', notes: 'gamma' },
      star: { title: 'glob*star', text: 'x-y minus' },
      short: { title: 'Go to Ab', text: 'up' },
      phrase: { title: 'the quick brown fox' },
      reversed: { title: 'brown the quick fox' },
    };
    for (const [key, fields] of Object.entries(fixtures)) made[key] = await makeTask(agent, tree.id, fields);
    await makeTask(other, (await makeTree(other)).id, {
      title: 'привет from a stranger',
      notes: 'alpha beta gamma 100%',
    });
  });
  afterAll(async () => t.stop());

  async function find(q: string, extra = ''): Promise<string[]> {
    const answer = await agent.get(`/api/v1/search?q=${encodeURIComponent(q)}${extra}`);
    expect(answer.status, q).toBe(200);
    return answer.body.items.map((x: any) => x.id);
  }

  it('matches substrings case-insensitively in every script', async () => {
    expect(await find('ПРИВЕТ')).toEqual([made.hello.id]);
    expect(await find('ривет')).toEqual([made.hello.id]);
    expect(await find('DISCOUNT')).toEqual([made.percent.id]);
  });

  it('treats %, _, *, quotes and FTS operators literally', async () => {
    expect(await find('100%')).toEqual([made.percent.id]);
    expect(await find('%')).toEqual([made.percent.id]);
    expect(await find('_')).toEqual([made.percent.id]);
    expect(await find('r_s')).toEqual([made.percent.id]);
    expect(await find('d_s')).toEqual([]);
    expect(await find('0%o')).toEqual([]);
    expect(await find('*')).toEqual([made.star.id]);
    expect(await find('glob*star')).toEqual([made.star.id]);
    expect(await find('NEAR')).toEqual([made.quotes.id]);
    expect(await find('NEAR b OR')).toEqual([made.quotes.id]);
    expect(await find('"b OR c"')).toEqual([made.quotes.id]);
    expect(await find('-y')).toEqual([made.star.id]);
    expect(await find("'; drop table tasks; --")).toEqual([]);
    expect(await find('"hi"')).toEqual([made.quotes.id]);
    expect(await find('say "hi')).toEqual([made.quotes.id]);
  });

  it('requires every term, each in any of title, text or notes', async () => {
    expect(await find('alpha gamma')).toEqual([made.split.id]);
    expect(await find('alpha delta')).toEqual([]);
    expect(await find('beta')).toEqual([made.split.id]);
  });

  it('keeps a quoted run together as one term', async () => {
    expect(await find('quick brown')).toEqual([made.phrase.id, made.reversed.id]);
    expect(await find('"quick brown"')).toEqual([made.phrase.id]);
    expect(await find('"the quick" fox')).toEqual([made.phrase.id, made.reversed.id]);
  });

  it('finds one- and two-character terms correctly', async () => {
    expect(await find('ab')).toEqual([made.short.id]);
    expect(await find('AB up')).toEqual([made.short.id]);
    expect(await find('ab alpha')).toEqual([]);
    expect(await find('ъ')).toEqual([]);
    expect(await find('Ж')).toEqual([made.hello.id]);
    expect(await find('У')).toEqual([made.hello.id]);
  });

  it("follows updates and deletes, filters by tree and never leaks another owner's tasks", async () => {
    const task = await makeTask(agent, tree.id, { title: 'ephemeral zebra' });
    expect(await find('zebra')).toEqual([task.id]);
    await agent.patch(`/api/v1/tasks/${task.id}`, { title: 'ephemeral okapi' });
    expect(await find('zebra')).toEqual([]);
    expect(await find('okapi')).toEqual([task.id]);
    await agent.delete(`/api/v1/tasks/${task.id}`);
    expect(await find('okapi')).toEqual([]);
    const second = await makeTree(agent);
    const there = await makeTask(agent, second.id, { title: 'alpha elsewhere' });
    expect(await find('alpha', `&tree_id=${second.id}`)).toEqual([there.id]);
    expect((await other.get(`/api/v1/search?q=alpha&tree_id=${tree.id}`)).status).toBe(404);
    expect((await other.get('/api/v1/search?q=quick')).body.items).toEqual([]);
    await agent.delete(`/api/v1/trees/${second.id}`);
    expect(await find('elsewhere')).toEqual([]);
  });

  it('pages like lists, with the cursor bound to q', async () => {
    const first = await agent.get('/api/v1/search?q=o&limit=2');
    expect(first.body.items).toHaveLength(2);
    const ids = first.body.items.map((x: any) => x.id);
    const cursor = encodeURIComponent(first.body.next_cursor);
    const next = await agent.get(`/api/v1/search?q=o&limit=2&cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect(next.body.items.map((x: any) => x.id)).not.toContain(ids[0]);
    expect((await agent.get(`/api/v1/search?q=oo&limit=2&cursor=${cursor}`)).body.error.code).toBe('invalid_cursor');
  });

  it('pages through indexed terms too, newest matches held back, with updated_since and short terms applied', async () => {
    const own = await makeTree(agent);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await makeTask(agent, own.id, { title: `walrus ${i}`, text: i % 2 === 0 ? 'on ice' : 'at sea' })).id);
    const page = (extra: string) => agent.get(`/api/v1/search?q=walrus&tree_id=${own.id}&limit=2${extra}`);
    const first = await page('');
    expect(first.body.items.map((x: any) => x.id)).toEqual(ids.slice(0, 2));
    const late = await makeTask(agent, own.id, { title: 'walrus late' });
    const cursor = encodeURIComponent(first.body.next_cursor);
    const second = await page(`&cursor=${cursor}`);
    expect(second.body.items.map((x: any) => x.id)).toEqual(ids.slice(2, 4));
    const third = await page(`&cursor=${encodeURIComponent(second.body.next_cursor)}`);
    expect(third.body).toEqual({ items: [expect.objectContaining({ id: ids[4] })], next_cursor: null });
    expect(await find('walrus', `&tree_id=${own.id}`)).toEqual([...ids, late.id]);

    expect(await find('walrus on', `&tree_id=${own.id}`)).toEqual([ids[0], ids[2], ids[4]]);
    await agent.patch(`/api/v1/tasks/${ids[1]}`, { notes: 'touched' });
    const touched = (await agent.get(`/api/v1/tasks/${ids[1]}`)).body.task.updated_at;
    expect(await find('walrus', `&tree_id=${own.id}&updated_since=${encodeURIComponent(touched)}`)).toEqual([ids[1]]);
  });

  it('validates q', async () => {
    for (const q of ['', 'x'.repeat(201), '""', '   ']) {
      const answer = await agent.get(`/api/v1/search?q=${encodeURIComponent(q)}`);
      expect(answer.status, JSON.stringify(q)).toBe(400);
      expect(answer.body.error.code).toBe('validation_failed');
    }
    expect((await agent.get('/api/v1/search')).status).toBe(400);
    expect((await agent.get(`/api/v1/search?q=${'x'.repeat(200)}`)).status).toBe(200);
  });
});
