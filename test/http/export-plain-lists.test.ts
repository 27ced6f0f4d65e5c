import { Type, type TObject } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTree } from '../helpers/data.js';
import { getUserByEmail } from '../../src/domain/accounts/accounts.js';
import { userActor } from '../../src/domain/actor.js';
import { createTask, updateTask } from '../../src/domain/trees/tasks.js';
import { setAssignees } from '../../src/domain/trees/assignees.js';
import { exportTree } from '../../src/domain/trees/export.js';
import { TreeExport } from '../../src/http/schemas/export.js';
import { PLAIN_LISTS } from '../../src/http/export-body.js';
import { serializedBySchema } from '../helpers/serialized.js';

/**
 * src/http/export-body.ts writes the lists of PLAIN_LISTS with JSON.stringify instead of their
 * schema's serializer. That holds only while their records carry exactly the schema's fields, in
 * its order, with JSON's types: every field set and unset, text JSON must escape.
 */
describe.each(databases)('export lists written with JSON.stringify (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it("match their schema field for field, so the bytes are the serializer's", async () => {
    const deps = t.app.deps;
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const { agent } = await makeToken(person);
    const actor = userActor(await getUserByEmail(deps, person.email), 'cli');
    const tree = await makeTree(agent, { name: 'plain' });
    const parent = await makeProject(agent, tree.id, {
      name: 'Beds "raised" \\ ✓',
      description: 'line\nbreak </script> \u2028',
    });
    await makeProject(agent, tree.id, { name: 'Under', parent_id: parent.id, color: '#ff8800' });
    const plain = await createTask(deps, actor, { tree_id: tree.id, title: 'loose' });
    const full = await createTask(deps, actor, {
      tree_id: tree.id,
      project_id: parent.id,
      title: 'task “quoted” 🌱',
      text: 'tab\there "x"',
      notes: 'ж\u0001\u2029',
      deadline: '2026-12-24',
      color: '#00aa00',
    });
    await updateTask(deps, actor, full.id, { status: 'done' });
    await setAssignees(deps, actor, full.id, [person.user.id]);
    await updateTask(deps, actor, plain.id, { status: 'archived' });

    const document = await exportTree(deps, actor, tree.id);
    expect(document.projects.map((p) => p.parent_id)).toEqual([null, parent.id]);
    expect(document.tasks.find((task) => task.id === full.id)).toMatchObject({
      completed_at: expect.any(String),
      deadline: '2026-12-24',
      assignee_ids: [person.user.id],
    });

    for (const key of PLAIN_LISTS) {
      const items = (TreeExport.properties[key] as unknown as { items: TObject }).items;
      const records = document[key] as object[];
      expect(records.length, key).toBeGreaterThan(1);
      for (const record of records) expect(Object.keys(record), key).toEqual(Object.keys(items.properties));
      expect(JSON.stringify(records), key).toBe(await serializedBySchema(Type.Array(items), records));
    }
  });
});
