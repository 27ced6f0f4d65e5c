import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { inviteToken, makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { download, upload } from '../helpers/files.js';
import { startFakeSpeech } from '../helpers/fake-speech.js';
import type { Client } from '../helpers/client.js';

const AUDIO = Buffer.from('RIFF....WAVEfmt fake audio of the board meeting');
const MINUTES = Buffer.from('minutes of the board');
/** What the mover writes with and after the move: none of it may reach the old tree. */
const SECRET = 'PRIVATE';
const MAX_FILE = 26_214_400;

async function jobUntilFinished(client: Client, id: string) {
  for (const started = Date.now(); ;) {
    const { body } = await client.get(`/api/v1/speech/jobs/${id}`);
    if (body.job.status === 'succeeded' || body.job.status === 'failed') return body.job;
    if (Date.now() - started > 15_000) throw new Error(`job stayed ${JSON.stringify(body.job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every page of a listing. */
async function all(client: Client, path: string): Promise<any[]> {
  const items: any[] = [];
  for (let cursor: string | null = null; ;) {
    const page: any = await client.get(
      `${path}${path.includes('?') ? '&' : '?'}limit=200${cursor === null ? '' : `&cursor=${cursor}`}`,
    );
    expect(page.status, path).toBe(200);
    items.push(...page.body.items);
    cursor = page.body.next_cursor;
    if (cursor === null) return items;
  }
}

describe.each(databases)('moves out of a shared tree carry everything along (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let provider: Awaited<ReturnType<typeof startFakeSpeech>>;
  let alice: Person; // owns the shared tree A (Grove)
  let ed: Person; // editor of A
  let vic: Person; // viewer of A
  let bob: Person; // editor of A, owns B (Grove), moves things out of A into B
  let carol: Person; // viewer of both A and B
  let treeA: any;
  let treeB: any;
  /** The moved task, the moved project and what hangs off them. */
  const moved = {
    task: '',
    boardProject: '',
    project: '',
    child: '',
    taskInProject: '',
    taskInChild: '',
    comments: [] as string[],
    edComment: '',
    bobComment: '',
    attachments: [] as string[],
    minutes: '',
    audio: '',
    job: '',
  };

  async function join(owner: Person, treeId: string, person: Person, role: 'viewer' | 'editor') {
    const invited = await owner.browser.post(`/api/v1/trees/${treeId}/members`, { email: person.email, role });
    expect(
      (
        await person.browser.post(`/api/v1/invitations/${invited.body.member.id}/accept`, {
          token: inviteToken(invited),
        })
      ).status,
    ).toBe(200);
  }

  async function comment(person: Person, taskId: string, body: string): Promise<string> {
    const created = await person.browser.post(`/api/v1/tasks/${taskId}/comments`, { body });
    expect(created.status, created.text).toBe(201);
    moved.comments.push(created.body.comment.id);
    return created.body.comment.id;
  }

  async function attach(
    person: Person,
    taskId: string,
    data: Buffer,
    name: string,
    type = 'text/plain',
  ): Promise<string> {
    const created = await upload(person.browser, `/api/v1/tasks/${taskId}/attachments`, [{ data, name, type }]);
    expect(created.status).toBe(201);
    moved.attachments.push(created.body.attachment.id);
    return created.body.attachment.id;
  }

  beforeAll(async () => {
    provider = await startFakeSpeech(['ok']);
    t = await startTestApp(kind, { SPEECH_API_URL: provider.url, RATE_LIMIT_PER_MINUTE: '100000' });
    t.app.deps.speech.retryBaseMs = 50;
    alice = await makeUser(t.url, t.app, { plan: 'grove' });
    ed = await makeUser(t.url, t.app, { plan: 'sprout' });
    vic = await makeUser(t.url, t.app);
    bob = await makeUser(t.url, t.app, { plan: 'grove' });
    carol = await makeUser(t.url, t.app);
    treeA = await makeTree(alice.browser, { name: 'Board' });
    treeB = await makeTree(bob.browser, { name: 'Mine' });
    await join(alice, treeA.id, ed, 'editor');
    await join(alice, treeA.id, vic, 'viewer');
    await join(alice, treeA.id, bob, 'editor');
    await join(alice, treeA.id, carol, 'viewer');
    await join(bob, treeB.id, carol, 'viewer');

    // A task of a project of A, with comments, files, a transcription and assignees.
    moved.boardProject = (await makeProject(alice.browser, treeA.id, { name: 'Board matters' })).id;
    moved.task = (await makeTask(ed.browser, treeA.id, { project_id: moved.boardProject, title: 'Budget review' })).id;
    moved.edComment = await comment(ed, moved.task, 'ed: numbers attached');
    moved.bobComment = await comment(bob, moved.task, 'bob: I will take it');
    moved.minutes = await attach(ed, moved.task, MINUTES, 'minutes.txt');
    const transcription = await upload(alice.browser, `/api/v1/tasks/${moved.task}/transcriptions`, [
      { data: AUDIO, name: 'memo.wav', type: 'audio/wav' },
    ]);
    expect(transcription.status).toBe(202);
    moved.job = transcription.body.job.id;
    moved.audio = transcription.body.job.attachment_id;
    moved.attachments.push(moved.audio);
    expect((await jobUntilFinished(alice.browser, moved.job)).status).toBe('succeeded');
    const assigned = await alice.browser.put(`/api/v1/tasks/${moved.task}/assignees`, {
      user_ids: [alice.user.id, ed.user.id, bob.user.id, carol.user.id],
    });
    expect(assigned.status).toBe(200);

    // A project of A with a child project, a task in each, their comments, a file and assignees.
    moved.project = (await makeProject(alice.browser, treeA.id, { name: 'Reorg' })).id;
    moved.child = (await makeProject(alice.browser, treeA.id, { name: 'Seating', parent_id: moved.project })).id;
    moved.taskInProject = (
      await makeTask(alice.browser, treeA.id, { project_id: moved.project, title: 'Team list' })
    ).id;
    moved.taskInChild = (await makeTask(alice.browser, treeA.id, { project_id: moved.child, title: 'Desk plan' })).id;
    await comment(ed, moved.taskInProject, 'ed on the team list');
    await attach(ed, moved.taskInChild, Buffer.from('desk plan'), 'desks.txt');
    expect(
      (
        await alice.browser.put(`/api/v1/tasks/${moved.taskInProject}/assignees`, {
          user_ids: [ed.user.id, bob.user.id],
        })
      ).status,
    ).toBe(200);

    // Bob moves both into his own tree, renaming them as he goes, then keeps working there.
    const taskMove = await bob.browser.patch(`/api/v1/tasks/${moved.task}`, {
      tree_id: treeB.id,
      title: `${SECRET}: layoffs list`,
      notes: `${SECRET} notes`,
    });
    expect(taskMove.status, taskMove.text).toBe(200);
    const projectMove = await bob.browser.patch(`/api/v1/projects/${moved.project}`, {
      tree_id: treeB.id,
      name: `${SECRET}: reorg plan`,
    });
    expect(projectMove.status, projectMove.text).toBe(200);
    expect(
      (await bob.browser.patch(`/api/v1/comments/${moved.bobComment}`, { body: `${SECRET}: edited after the move` }))
        .status,
    ).toBe(200);
    await comment(bob, moved.task, `${SECRET}: written after the move`);
    await comment(bob, moved.taskInChild, `${SECRET}: on the desks`);
    expect(
      (await bob.browser.patch(`/api/v1/tasks/${moved.taskInProject}`, { title: `${SECRET}: who goes` })).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await provider?.close();
  });

  const readers = { owner: () => alice, editor: () => ed, viewer: () => vic };
  for (const [role, who] of Object.entries(readers)) {
    it(`leaves the old tree's ${role} nothing of a moved task or project in any read`, async () => {
      const reader = who().browser;
      const taskIds = [moved.task, moved.taskInProject, moved.taskInChild];
      const projectIds = [moved.project, moved.child];
      const ids = new Set<string>([...taskIds, ...projectIds, ...moved.comments, ...moved.attachments, moved.job]);
      const paths = [
        ...taskIds.flatMap((id) => [
          `/api/v1/tasks/${id}`,
          `/api/v1/tasks/${id}/comments`,
          `/api/v1/tasks/${id}/attachments`,
          `/api/v1/tasks/${id}/transcriptions`,
        ]),
        ...projectIds.flatMap((id) => [`/api/v1/projects/${id}`, `/api/v1/tasks?project_id=${id}`]),
        ...moved.attachments.flatMap((id) => [`/api/v1/attachments/${id}`, `/api/v1/attachments/${id}/content`]),
        `/api/v1/speech/jobs/${moved.job}`,
      ];
      for (const path of paths) {
        const answer = await reader.get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.body.error.code, path).toBe('not_found');
      }
      expect((await reader.patch(`/api/v1/comments/${moved.edComment}`, { body: 'still mine?' })).status).toBe(404);

      const listings = [
        `/api/v1/tasks?tree_id=${treeA.id}`,
        '/api/v1/tasks',
        `/api/v1/tasks?assignee_id=${who().user.id}`,
        `/api/v1/projects?tree_id=${treeA.id}`,
        '/api/v1/projects',
        `/api/v1/search?q=${SECRET}`,
        '/api/v1/search?q=Budget',
        '/api/v1/search?q=Team',
        `/api/v1/trees/${treeA.id}/messages`,
      ];
      for (const path of listings) {
        const items = await all(reader, path);
        expect(
          items.filter((item) => ids.has(item.id)),
          path,
        ).toEqual([]);
        expect(JSON.stringify(items), path).not.toContain(SECRET);
      }

      const exported = await reader.get(`/api/v1/trees/${treeA.id}/export`);
      expect(exported.status).toBe(200);
      const { body } = exported;
      for (const list of ['projects', 'tasks', 'comments', 'attachments'] as const) {
        expect(
          body[list].filter((record: any) => ids.has(record.id) || taskIds.includes(record.task_id)),
          list,
        ).toEqual([]);
      }
      expect(exported.text).not.toContain(SECRET);

      // The old tree's history keeps what happened there and says only where the records went.
      const history = await all(reader, `/api/v1/trees/${treeA.id}/history`);
      expect(JSON.stringify(history)).not.toContain(SECRET);
      const movedEntry = (entity: string, id: string) => [entity, id, { tree_id: { from: treeA.id, to: treeB.id } }];
      // The listing is newest first, the export oldest first.
      // Each record the project's move carried has its own entry (CONTRACT §16.3), naming only the trees.
      const oldestFirst = [
        movedEntry('task', moved.task),
        movedEntry('project', moved.project),
        movedEntry('project', moved.child),
        movedEntry('task', moved.taskInProject),
        movedEntry('task', moved.taskInChild),
      ];
      for (const [entries, expected] of [
        [history, [...oldestFirst].reverse()],
        [body.history, oldestFirst],
      ] as const) {
        expect(
          entries.filter((h: any) => h.action === 'moved').map((h: any) => [h.entity, h.entity_id, h.changes]),
        ).toEqual(expected);
        expect(entries.filter((h: any) => h.entity_id === moved.bobComment && h.action !== 'created')).toEqual([]);
      }
    });
  }

  it('gives the destination the records with their comments, files, transcriptions and the assignees who can see it', async () => {
    const owner = bob.browser;
    const task = (await owner.get(`/api/v1/tasks/${moved.task}`)).body.task;
    expect(task).toMatchObject({
      tree_id: treeB.id,
      project_id: null,
      title: `${SECRET}: layoffs list`,
      assignee_ids: [bob.user.id, carol.user.id].sort(),
    });
    expect((await owner.get(`/api/v1/tasks/${moved.taskInProject}`)).body.task.assignee_ids).toEqual([bob.user.id]);
    expect(
      (await carol.browser.get(`/api/v1/tasks?assignee_id=${carol.user.id}`)).body.items.map((x: any) => x.id),
    ).toEqual([moved.task]);
    expect((await owner.get(`/api/v1/tasks/${moved.task}/comments`)).body.items.map((c: any) => c.body)).toEqual([
      'ed: numbers attached',
      `${SECRET}: edited after the move`,
      `${SECRET}: written after the move`,
    ]);
    expect((await owner.get(`/api/v1/tasks/${moved.task}/attachments`)).body.items.map((a: any) => a.id)).toEqual([
      moved.minutes,
      moved.audio,
    ]);
    expect((await download(owner, `${t.url}/api/v1/attachments/${moved.minutes}/content`)).bytes.equals(MINUTES)).toBe(
      true,
    );
    expect((await owner.get(`/api/v1/tasks/${moved.task}/transcriptions`)).body.items.map((j: any) => j.id)).toEqual([
      moved.job,
    ]);
    // The moved audio is an attachment of the new owner's tree: it can be transcribed there, from where it is stored.
    const again = await owner.post(`/api/v1/tasks/${moved.task}/transcriptions`, { attachment_id: moved.audio });
    expect(again.status, again.text).toBe(202);
    expect(await jobUntilFinished(owner, again.body.job.id)).toMatchObject({
      status: 'succeeded',
      transcript: `heard ${AUDIO.length} bytes`,
    });

    const exported = await owner.get(`/api/v1/trees/${treeB.id}/export`);
    const { body } = exported;
    expect(body.projects.map((p: any) => p.id).sort()).toEqual([moved.project, moved.child].sort());
    expect(body.tasks.map((x: any) => x.id).sort()).toEqual(
      [moved.task, moved.taskInProject, moved.taskInChild].sort(),
    );
    expect(body.comments.map((c: any) => c.id).sort()).toEqual([...moved.comments].sort());
    expect(body.attachments.map((a: any) => a.id).sort()).toEqual([...moved.attachments].sort());
    // The destination learns nothing of the tree the records left but its id: not where they sat there.
    expect(exported.text).not.toContain(moved.boardProject);
    const move = body.history.find((h: any) => h.entity_id === moved.task && h.action === 'moved');
    expect(move.changes).toEqual({
      tree_id: { from: treeA.id, to: treeB.id },
      title: { from: 'Budget review', to: `${SECRET}: layoffs list` },
      notes: { from: '', to: `${SECRET} notes` },
    });

    // Nothing of theirs is left with the old tree or its owner.
    const db = t.app.deps.db;
    const taskIds = [moved.task, moved.taskInProject, moved.taskInChild];
    for (const table of ['comments', 'task_assignees'] as const) {
      const rows = await db.selectFrom(table).select(['owner_id', 'tree_id']).where('task_id', 'in', taskIds).execute();
      expect(rows.length, table).toBeGreaterThan(0);
      expect(
        rows.filter((row) => row.owner_id !== bob.user.id || row.tree_id !== treeB.id),
        table,
      ).toEqual([]);
    }
    for (const table of ['attachments', 'speech_jobs'] as const) {
      const rows = await db.selectFrom(table).select('owner_id').where('task_id', 'in', taskIds).execute();
      expect(rows.length, table).toBeGreaterThan(0);
      expect(
        rows.filter((row) => row.owner_id !== bob.user.id),
        table,
      ).toEqual([]);
    }
  });

  it('charges moved files to the destination owner, and refuses a move past its storage with nothing moved', async () => {
    // Sam is on Seed (100 MiB), an editor of Alice's tree and the owner of his own.
    const sam = await makeUser(t.url, t.app);
    await join(alice, treeA.id, sam, 'editor');
    const own = await makeTree(sam.browser, { name: 'Full' });
    const filler = await makeTask(sam.browser, own.id);
    const fillers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await upload(sam.browser, `/api/v1/tasks/${filler.id}/attachments`, [
        { data: Buffer.alloc(MAX_FILE, i) },
      ]);
      expect(created.status).toBe(201);
      fillers.push(created.body.attachment.id);
    }
    const project = await makeProject(alice.browser, treeA.id, { name: 'Small files' });
    const task = await makeTask(alice.browser, treeA.id, { title: 'One byte' });
    const inProject = await makeTask(alice.browser, treeA.id, { title: 'Another byte', project_id: project.id });
    await attach(ed, task.id, Buffer.from('x'), 'x.txt');
    await attach(ed, inProject.id, Buffer.from('y'), 'y.txt');

    const storageRefusal = {
      code: 'plan_limit_reached',
      details: [{ limit: 'attachment_storage_bytes', value: 104_857_600 }],
    };
    const refused = await sam.browser.patch(`/api/v1/tasks/${task.id}`, { tree_id: own.id });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject(storageRefusal);
    const refusedProject = await sam.browser.patch(`/api/v1/projects/${project.id}`, { tree_id: own.id });
    expect(refusedProject.status).toBe(403);
    expect(refusedProject.body.error).toMatchObject(storageRefusal);
    expect((await alice.browser.get(`/api/v1/tasks/${task.id}`)).body.task.tree_id).toBe(treeA.id);
    expect((await alice.browser.get(`/api/v1/tasks/${inProject.id}`)).body.task.tree_id).toBe(treeA.id);
    expect((await alice.browser.get(`/api/v1/projects/${project.id}`)).body.project.tree_id).toBe(treeA.id);
    expect((await alice.browser.get(`/api/v1/tasks/${task.id}/attachments`)).body.items).toHaveLength(1);
    expect((await sam.browser.get(`/api/v1/tasks?tree_id=${own.id}`)).body.items.map((x: any) => x.id)).toEqual([
      filler.id,
    ]);
    expect((await sam.browser.get(`/api/v1/projects?tree_id=${own.id}`)).body.items).toEqual([]);

    // With room for it, the byte moves in and counts: a full-size file no longer fits beside it.
    expect((await sam.browser.delete(`/api/v1/attachments/${fillers.pop()}`)).status).toBe(200);
    expect((await sam.browser.patch(`/api/v1/tasks/${task.id}`, { tree_id: own.id })).status).toBe(200);
    const overByOne = await upload(sam.browser, `/api/v1/tasks/${filler.id}/attachments`, [
      { data: Buffer.alloc(MAX_FILE, 9) },
    ]);
    expect(overByOne.status).toBe(403);
    expect(overByOne.body.error).toMatchObject(storageRefusal);
    // Moved on to Alice's tree, it is hers again and Sam has the room back.
    expect((await sam.browser.patch(`/api/v1/tasks/${task.id}`, { tree_id: treeA.id })).status).toBe(200);
    const fits = await upload(sam.browser, `/api/v1/tasks/${filler.id}/attachments`, [
      { data: Buffer.alloc(MAX_FILE, 9) },
    ]);
    expect(fits.status).toBe(201);
  }, 120_000);

  it('takes along comments, files and assignments written while the task moves', async () => {
    const db = t.app.deps.db;
    for (let round = 0; round < 5; round++) {
      const task = await makeTask(alice.browser, treeA.id, { title: `Busy ${round}` });
      const writes = [
        ...Array.from({ length: 6 }, (_, i) =>
          ed.browser.post(`/api/v1/tasks/${task.id}/comments`, { body: `during the move ${i}` }),
        ),
        ...Array.from({ length: 3 }, (_, i) =>
          upload(ed.browser, `/api/v1/tasks/${task.id}/attachments`, [
            { data: Buffer.from(`file ${i}`), name: `f${i}.txt` },
          ]),
        ),
        ed.browser.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [ed.user.id, bob.user.id] }),
      ];
      const move = bob.browser.patch(`/api/v1/tasks/${task.id}`, { tree_id: treeB.id });
      const answers = await Promise.all([move, ...writes]);
      expect(answers[0]!.status).toBe(200);
      // Each write landed before the move (and went along) or after it (404: Ed cannot see tree B).
      expect(
        answers
          .slice(1)
          .map((a) => a.status)
          .filter((s) => ![200, 201, 404].includes(s)),
      ).toEqual([]);
      const comments = await db
        .selectFrom('comments')
        .select(['owner_id', 'tree_id'])
        .where('task_id', '=', task.id)
        .execute();
      expect(comments.filter((c) => c.tree_id !== treeB.id || c.owner_id !== bob.user.id)).toEqual([]);
      const files = await db.selectFrom('attachments').select('owner_id').where('task_id', '=', task.id).execute();
      expect(files.filter((f) => f.owner_id !== bob.user.id)).toEqual([]);
      const assigned = await db
        .selectFrom('task_assignees')
        .select(['user_id', 'tree_id'])
        .where('task_id', '=', task.id)
        .execute();
      expect(assigned.filter((a) => a.tree_id !== treeB.id || a.user_id !== bob.user.id)).toEqual([]);
      const { task: after } = (await bob.browser.get(`/api/v1/tasks/${task.id}`)).body;
      expect(after.assignee_ids).toEqual(assigned.map((a) => a.user_id));
    }
  });
});
