// The web app's side of CONTRACT §16.4 that needs no browser: a tree's fresh reading merged into
// the one shown (the same objects for what did not change, so only what changed is drawn again;
// a record under edit held back), and history entries grouped into changes and counted.
import { describe, expect, it } from 'vitest';

const load = (path: string): Promise<any> => import(/* @vite-ignore */ path);
const { mergeSnapshot } = await load('../../web/src/pages/tree/mergeSnapshot.ts');
const { groupChanges, countActions, canUndo, undoneChanges, isAgent } = await load(
  '../../web/src/pages/changes/changeGroups.ts',
);

const task = (id: string, title: string, version = 1) => ({ id, title, version, assignee_ids: [] as string[] });
const snapshot = (tasks: ReturnType<typeof task>[]) => ({
  tree: { id: 'tre_1', name: 'Garden', version: 1 },
  projects: [{ id: 'prj_1', name: 'Beds', version: 1 }],
  tasks,
});

describe('mergeSnapshot', () => {
  it('gives back the very same snapshot when nothing changed', () => {
    const old = snapshot([task('tsk_1', 'Water')]);
    const next = JSON.parse(JSON.stringify(old));
    const merged = mergeSnapshot(old, next, new Set());
    expect(merged.snapshot).toBe(old);
    expect(merged).toMatchObject({ added: [], changed: [], complete: true });
  });

  it('reuses unchanged records and names the added and changed tasks', () => {
    const old = snapshot([task('tsk_1', 'Water'), task('tsk_2', 'Weed')]);
    const next = snapshot([task('tsk_1', 'Water'), task('tsk_2', 'Weed the beds', 2), task('tsk_3', 'Sow')]);
    const merged = mergeSnapshot(old, next, new Set());
    expect(merged.snapshot).not.toBe(old);
    expect(merged.snapshot.tasks[0]).toBe(old.tasks[0]);
    expect(merged.snapshot.tasks[1].title).toBe('Weed the beds');
    expect(merged.snapshot.projects).toBe(old.projects);
    expect(merged.snapshot.tree).toBe(old.tree);
    expect(merged.added).toEqual(['tsk_3']);
    expect(merged.changed).toEqual(['tsk_2']);
    expect(merged.complete).toBe(true);
  });

  it('compares arrays by content (assignees)', () => {
    const old = snapshot([{ ...task('tsk_1', 'Water'), assignee_ids: ['usr_a'] }]);
    const same = mergeSnapshot(old, snapshot([{ ...task('tsk_1', 'Water'), assignee_ids: ['usr_a'] }]), new Set());
    expect(same.snapshot).toBe(old);
    const other = mergeSnapshot(old, snapshot([{ ...task('tsk_1', 'Water'), assignee_ids: ['usr_b'] }]), new Set());
    expect(other.changed).toEqual(['tsk_1']);
  });

  it('holds back a task under edit, changed or gone, and says the reading is not wholly shown', () => {
    const old = snapshot([task('tsk_1', 'Water'), task('tsk_2', 'Weed')]);
    const changed = mergeSnapshot(
      old,
      snapshot([task('tsk_1', 'Water at dawn', 2), task('tsk_2', 'Weed')]),
      new Set(['tsk_1']),
    );
    expect(changed.snapshot.tasks[0]).toBe(old.tasks[0]);
    expect(changed.changed).toEqual([]);
    expect(changed.complete).toBe(false);
    const gone = mergeSnapshot(old, snapshot([task('tsk_2', 'Weed')]), new Set(['tsk_1']));
    expect(gone.snapshot.tasks.map((x: { id: string }) => x.id).sort()).toEqual(['tsk_1', 'tsk_2']);
    expect(gone.complete).toBe(false);
  });

  it('drops a task removed elsewhere when it is not being edited', () => {
    const old = snapshot([task('tsk_1', 'Water'), task('tsk_2', 'Weed')]);
    const merged = mergeSnapshot(old, snapshot([task('tsk_2', 'Weed')]), new Set());
    expect(merged.snapshot.tasks).toEqual([old.tasks[1]]);
    expect(merged.snapshot.tasks[0]).toBe(old.tasks[1]);
  });
});

const entry = (id: string, change: string | null, entity: string, action: string, extra: object = {}) => ({
  id,
  at: '2026-11-27T10:00:00.000Z',
  tree_id: 'tre_1',
  actor_id: 'usr_1',
  via: 'token',
  entity,
  entity_id: `${entity}_${id}`,
  action,
  changes: {},
  change_id: change,
  credential_id: 'pat_1',
  client: 'Helper',
  reverts: null,
  ...extra,
});

describe('changes from history', () => {
  it('groups consecutive entries of one change, newest first, and counts them per record kind', () => {
    const entries = [
      entry('h5', 'chg_b', 'task', 'moved'),
      entry('h4', 'chg_b', 'task', 'created'),
      entry('h3', 'chg_b', 'task', 'created'),
      entry('h2', 'chg_b', 'project', 'created'),
      entry('h1', 'chg_a', 'task', 'created', { credential_id: null, client: null, via: 'session' }),
      entry('h0', null, 'comment', 'created'),
      entry('hx', 'chg_t', 'tree', 'created'),
    ];
    const groups = groupChanges(entries);
    expect(groups.map((g: { key: string }) => g.key)).toEqual(['chg_b', 'chg_a', 'h0', 'chg_t']);
    expect(countActions(groups[0].entries)).toEqual([
      {
        entity: 'task',
        actions: [
          ['moved', 1],
          ['created', 2],
        ],
      },
      { entity: 'project', actions: [['created', 1]] },
    ]);
    expect(isAgent(groups[0])).toBe(true);
    expect(isAgent(groups[1])).toBe(false);
    // Old entries without a change, changes of comments alone and the tree's planting offer no Undo.
    expect(groups.map(canUndo)).toEqual([true, true, false, false]);
  });

  it('counts an assignment apart from other updates, and knows which changes a revert undid', () => {
    const groups = groupChanges([
      entry('h3', 'chg_r', 'task', 'deleted', { reverts: 'chg_a' }),
      entry('h2', 'chg_a', 'task', 'updated', { changes: { assignee_ids: { from: [], to: ['usr_2'] } } }),
      entry('h1', 'chg_a', 'task', 'updated', { changes: { title: { from: 'a', to: 'b' } } }),
    ]);
    expect(countActions(groups[1].entries)).toEqual([
      {
        entity: 'task',
        actions: [
          ['assigned', 1],
          ['updated', 1],
        ],
      },
    ]);
    expect([...undoneChanges(groups)]).toEqual(['chg_a']);
  });
});
