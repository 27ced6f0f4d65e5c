import { readdirSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor } from '../../src/domain/actor.js';
import { insertTasksBulk } from '../../src/domain/trees/tasks.js';
import { createComment } from '../../src/domain/trees/comments.js';
import { createMessage } from '../../src/domain/trees/messages.js';
import { exportTree } from '../../src/domain/trees/export.js';
import { TreeExport } from '../../src/http/schemas/export.js';
import { etagFor } from '../../src/http/etag.js';
import { serializedBySchema } from '../helpers/serialized.js';

/**
 * The export is written page by page (a page of rows at a time, each page serialized and hashed
 * as it comes). Its bytes and ETag must be those of the whole document serialized at once, as the
 * route answered before, for a tree whose lists span several pages.
 */
describe.each(databases)('export written page by page (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());
  afterEach(() => vi.useRealTimers());

  it(
    'answers the bytes and ETag of the whole document serialized at once, every row once and in order',
    { timeout: 60_000 },
    async () => {
      const deps = t.app.deps;
      const person = await makeUser(t.url, t.app, { plan: 'grove' });
      const { agent } = await makeToken(person);
      const actor = userActor(await getUserByEmail(deps, person.email), 'cli');
      const tree = await makeTree(agent, { name: 'Ünïcode "tree" \\ ✓' });
      const project = await makeProject(agent, tree.id, { name: 'Beds', description: 'line\nbreak </script>' });
      // 2,345 tasks: three pages, the last one partial; text that JSON must escape, and non-ASCII.
      await insertTasksBulk(
        deps,
        actor,
        tree.id,
        Array.from({ length: 2_345 }, (_, i) => ({
          title: `task ${i} “quoted” \\ 🌱`,
          text: i % 7 === 0 ? 'tab\there\u2028"' : '',
          notes: 'ж'.repeat(i % 50),
          ...(i % 3 === 0 ? { project_id: project.id } : {}),
        })),
      );
      const [first] = await deps.db
        .selectFrom('tasks')
        .select('id')
        .where('tree_id', '=', tree.id)
        .orderBy('seq')
        .limit(1)
        .execute();
      // 1,001 comments (two pages), and the history entry each of them writes.
      for (let i = 0; i < 1_001; i++) await createComment(deps, actor, first!.id, `comment ${i} ✓ "${i}"`);
      for (let i = 0; i < 3; i++) await createMessage(deps, actor, tree.id, `message ${i}\n`);
      expect(
        (
          await upload(agent, `/api/v1/tasks/${first!.id}/attachments`, [
            { data: Buffer.from('hello'), name: 'notes "1".txt', type: 'text/plain' },
          ])
        ).status,
      ).toBe(201);

      // One instant for the whole test, so two exports are the same document (exported_at included).
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const answer = await agent.get(`/api/v1/trees/${tree.id}/export`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');

      // What the route answered when it returned the whole document for Fastify to serialize.
      const expected = await serializedBySchema(TreeExport, await exportTree(deps, actor, tree.id));
      expect(answer.text).toBe(expected);
      expect(answer.headers.get('etag')).toBe(etagFor(person.user.id, expected));
      expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(expected));

      // The pages neither skip nor repeat a row: every list is the tree's rows in creation order.
      const ids = async (table: 'tasks' | 'comments' | 'history') =>
        (await deps.db.selectFrom(table).select('id').where('tree_id', '=', tree.id).orderBy('seq').execute()).map(
          (row) => row.id,
        );
      const listed = (key: string) => (answer.body[key] as { id: string }[]).map((record) => record.id);
      expect(listed('tasks')).toEqual(await ids('tasks'));
      expect(listed('comments')).toEqual(await ids('comments'));
      expect(listed('history')).toEqual(await ids('history'));
      expect(listed('history').length).toBeGreaterThan(1_001);
      expect(answer.body.messages).toHaveLength(3);
      expect(answer.body.attachments).toHaveLength(1);

      // The same document again is 304 to its ETag, and a stranger still gets 404, not 304.
      const unchanged = await agent.get(`/api/v1/trees/${tree.id}/export`, {
        headers: { 'if-none-match': answer.headers.get('etag')! },
      });
      expect(unchanged.status).toBe(304);
      expect(unchanged.text).toBe('');
      const stranger = (await makeToken(await makeUser(t.url, t.app, { plan: 'grove' }))).agent;
      expect(
        (
          await stranger.get(`/api/v1/trees/${tree.id}/export`, {
            headers: { 'if-none-match': answer.headers.get('etag')! },
          })
        ).status,
      ).toBe(404);
      // The spool of every answer above (200, 304, 404) is gone with it.
      expect(readdirSync(deps.tempFiles.dir)).toEqual([]);
    },
  );
});
