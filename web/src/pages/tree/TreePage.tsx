import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { members, tasks, trees } from '../../api/endpoints';
import type { Project, Task, TaskStatus, TreeSnapshot, TreeStyleName } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { messageTemplate } from '../../i18n/template';
import { useLoad } from '../../components/useLoad';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { usePageTitle } from '../../components/usePageTitle';
import { TreeDrawing, type LayoutInput, type LayoutTask } from '../../components/drawing';
import { StyleSelect } from '../trees/StyleSelect';
import { TreeOutline } from './TreeOutline';
import { TaskPanel } from './TaskPanel';
import { SearchBox } from './SearchBox';
import { ItemDialog } from './ItemDialog';
import { ImportDialog } from './ImportDialog';
import { Activity } from './Activity';
import { peopleOf } from './people';
import type { Names } from './historyText';
import { useUser } from '../../session';
import { confirmLeave } from '../../components/useLeaveGuard';
import { Notice, type NoticeContent } from '../../components/Notice';
import { Tabs } from '../../components/Tabs';
import { ArchivedList, ArchivedRows } from './Archived';
import { saveOrCurrent } from '../../api/versioned';
import { isOverdue, today } from '../../components/due';
import { narrowTo } from './narrow';
import { useFreshTree } from './useFreshTree';
import { FreshNote } from './FreshNote';

type Dialog = 'project' | 'task' | 'import' | { project: string } | null;

/** Every project under `id` (not itself), and the tasks of it and of them. */
function contentsOf(id: string, projects: Project[], list: Task[]): { projects: number; tasks: number } {
  const inside = new Set([id]);
  for (let size = 0; size !== inside.size;) {
    size = inside.size;
    for (const p of projects) if (p.parent_id !== null && inside.has(p.parent_id)) inside.add(p.id);
  }
  return {
    projects: inside.size - 1,
    tasks: list.filter((x) => x.project_id !== null && inside.has(x.project_id)).length,
  };
}

export function TreePage() {
  const t = useT();
  const id = useRoute().params.id ?? '';
  const { query, route } = useLocation();
  const user = useUser();
  const snapshot = useLoad(() => trees.get(id), [id]);
  // Members name the people in comments, assignees and history; a failure leaves them unnamed, never blocks the tree.
  const team = useLoad(() => members.list(id).catch(() => ({ items: [], owner_name: null })), [id]);
  // Where a task or project can move; a failure only leaves the choice out.
  const allTrees = useLoad(() => trees.list().catch(() => []), []);
  const writable = useMemo(() => allTrees.data?.filter((x) => x.access !== 'viewer') ?? null, [allTrees.data]);
  // The open task is in the address (/trees/{tree}?task={task}), so a link opens it.
  const selected = query.task ?? null;
  const opener = useRef<Element | null>(null);
  const [found, setFound] = useState<Task[] | null>(null);
  const highlighted = useMemo<ReadonlySet<string>>(
    () => new Set((found ?? []).filter((x) => x.status !== 'archived').map((x) => x.id)),
    [found],
  );
  const [searchKey, setSearchKey] = useState(0);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [listTab, setListTab] = useState<'tasks' | 'archived'>('tasks');
  const [notice, setNotice] = useState<NoticeContent | null>(null);
  const hideNotice = useCallback(() => setNotice(null), []);
  const data = snapshot.data;
  usePageTitle(data?.tree.name ?? t('nav.trees'));
  // The open task or project holds the person's edits: a fresh reading leaves it as they saw it.
  const editing = () =>
    new Set(
      [selected, dialog !== null && typeof dialog === 'object' ? dialog.project : null].filter((x) => x !== null),
    );
  const { fresh, revalidate } = useFreshTree(id, snapshot, editing, t('changes.agent'));
  const freshNames = useMemo<ReadonlyMap<string, string>>(
    () => new Map([...fresh].map(([taskId, leaf]) => [taskId, leaf.agent])),
    [fresh],
  );
  const changeId = query.change ?? null;

  const setSelected = (taskId: string | null) =>
    route(taskId === null ? `/trees/${id}` : `/trees/${id}?task=${encodeURIComponent(taskId)}`, true);
  /** Opening another task leaves the open panel: it asks first when that holds unsaved edits. */
  const openTask = (taskId: string) => {
    if (taskId === selected || !confirmLeave()) return;
    opener.current = document.activeElement;
    setSelected(taskId);
  };
  /** Focus goes back to what opened the panel, or to the task's row when that has been redrawn. */
  const closeTask = (ask = true) => {
    if (ask && !confirmLeave()) return;
    const back = opener.current;
    const row = selected;
    setSelected(null);
    requestAnimationFrame(() => {
      const target =
        (back instanceof HTMLElement || back instanceof SVGElement) && back.isConnected
          ? back
          : row !== null
            ? document.querySelector<HTMLElement | SVGElement>(
                `.tree-drawing [data-task-id="${CSS.escape(row)}"], .outline [data-row-task="${CSS.escape(row)}"] .outline-task`,
              )
            : null;
      target?.focus();
    });
  };

  const edit = (change: (s: TreeSnapshot) => TreeSnapshot) => snapshot.setData((s) => (s === null ? s : change(s)));
  const addProject = (p: Project) => edit((s) => ({ ...s, projects: [...s.projects, p] }));
  const addTask = (task: Task) => {
    edit((s) => ({ ...s, tasks: [...s.tasks, task] }));
    setSelected(task.id);
  };
  const restoreTask = (task: Task) => {
    edit((s) => ({ ...s, tasks: [...s.tasks.filter((x) => x.id !== task.id), task] }));
    setFound((f) => f?.map((x) => (x.id === task.id ? task : x)) ?? null);
  };
  // Archived tasks leave the snapshot (CONTRACT §6), as they do on the next load.
  const saveTask = (task: Task) =>
    edit((s) => ({
      ...s,
      tasks:
        task.status === 'archived'
          ? s.tasks.filter((x) => x.id !== task.id)
          : s.tasks.map((x) => (x.id === task.id ? task : x)),
    }));
  const dropTask = (taskId: string) => {
    edit((s) => ({ ...s, tasks: s.tasks.filter((x) => x.id !== taskId) }));
    closeTask(false);
  };
  const movedTask = (task: Task) => {
    dropTask(task.id);
    const to = writable?.find((x) => x.id === task.tree_id);
    setNotice({
      text: t('tree.taskMoved', { title: task.title, tree: to?.name ?? '' }),
      link: { label: t('tree.openThere'), href: `/trees/${task.tree_id}?task=${task.id}` },
    });
  };
  /**
   * The row's Done box: one click, and Undo puts the status back as it was. A task saved elsewhere
   * since the tree was read (412) is shown as it is now, with a word, and left unchanged.
   */
  const markDone = async (task: Task, done: boolean) => {
    const before: TaskStatus = task.status;
    const outcome = await saveOrCurrent(
      () => tasks.update(task, { status: done ? 'done' : 'todo' }),
      () => tasks.get(task.id),
    ).catch((e: unknown) => {
      setNotice({ text: messageOf(e) });
      return null;
    });
    if (outcome === null) return;
    if (outcome.current !== undefined) {
      saveTask(outcome.current);
      return setNotice({ text: t('conflict.refreshed', { title: outcome.current.title }) });
    }
    const next = outcome.saved;
    saveTask(next);
    setNotice({
      text: t(done ? 'tree.markedDone' : 'tree.markedNotDone', { title: task.title }),
      action: {
        label: t('tree.undo'),
        run: async () => saveTask(await tasks.update(next, { status: before })),
      },
    });
  };
  const projectSaved = (p: Project) => {
    if (p.tree_id === id) return edit((s) => ({ ...s, projects: s.projects.map((x) => (x.id === p.id ? p : x)) }));
    // Gone to another tree, with its sub-projects and their tasks.
    void snapshot.reload();
    const to = writable?.find((x) => x.id === p.tree_id);
    setNotice({
      text: t('project.moved', { name: p.name, tree: to?.name ?? '' }),
      link: { label: t('tree.openThere'), href: `/trees/${p.tree_id}` },
    });
  };
  // A tree renamed or restyled elsewhere meanwhile (412): the page shows it as it is now, with a word.
  const { error: styleError, run: restyle } = useSubmit(async (style: TreeStyleName) => {
    if (data === null) return;
    const outcome = await saveOrCurrent(
      () => trees.update(data.tree, { style }),
      async () => (await trees.get(id)).tree,
    );
    if (outcome.current !== undefined) {
      void snapshot.reload();
      throw new Error(t('conflict.treeRefreshed'));
    }
    const tree = outcome.saved;
    edit((s) => ({ ...s, tree }));
  });

  const input = useMemo<LayoutInput | null>(
    () =>
      data === null ? null : { treeId: data.tree.id, name: data.tree.name, projects: data.projects, tasks: data.tasks },
    [data],
  );
  const people = useMemo(
    () =>
      data === null
        ? null
        : peopleOf(data.tree, team.data ?? { items: [], owner_name: null }, user, {
            owner: t('people.owner'),
            someone: t('people.someone'),
            deleted: t('people.deleted'),
          }),
    [data?.tree, team.data, user, t],
  );
  const names = useMemo<Names>(
    () => ({
      task: (taskId) => data?.tasks.find((x) => x.id === taskId)?.title ?? null,
      project: (projectId) => data?.projects.find((x) => x.id === projectId)?.name ?? null,
    }),
    [data],
  );
  // Stable between renders, so the drawing keeps its nodes when only the selection or a search
  // changes; the status words and the label's pattern are looked up once, not once per task
  // (10,000 i18next calls).
  const treeName = data?.tree.name ?? '';
  const labels = useMemo(() => {
    const statusWord = new Map<LayoutTask['status'], string>();
    const status = (s: LayoutTask['status']) =>
      statusWord.get(s) ?? (statusWord.set(s, t(`status.${s}`)), statusWord.get(s)!);
    const taskLabel = messageTemplate((values) => t('tree.taskLabel', values), ['title', 'status'] as const);
    const overdueLabel = messageTemplate((values) => t('due.overdueLabel', values), ['label'] as const);
    const day = today(user.timezone);
    return {
      drawing: t('tree.drawing', { name: treeName }),
      task: (x: LayoutTask) => {
        const label = taskLabel({ title: x.title, status: status(x.status) });
        return isOverdue({ status: x.status, deadline: x.deadline ?? null }, user.timezone, day)
          ? overdueLabel({ label })
          : label;
      },
      project: (p: { name: string }) => t('tree.projectLabel', { name: p.name }),
      zoom: { label: t('zoom.label'), zoomIn: t('zoom.zoomIn'), zoomOut: t('zoom.zoomOut'), fit: t('zoom.fit') },
    };
  }, [t, treeName, user.timezone]);
  // Overdue in the person's own days: marked in the drawing and the list (CONTRACT §18).
  const overdue = useMemo<ReadonlySet<string>>(() => {
    const day = today(user.timezone);
    return new Set((data?.tasks ?? []).filter((x) => isOverdue(x, user.timezone, day)).map((x) => x.id));
  }, [data?.tasks, user.timezone]);
  // A search narrows the list view to its matches; "Show the whole tree" brings the rest back.
  const listed = useMemo(
    () =>
      data === null
        ? null
        : found === null
          ? { projects: data.projects, tasks: data.tasks }
          : narrowTo(found, data.projects, data.tasks),
    [found, data?.projects, data?.tasks],
  );
  const showWholeTree = () => {
    setFound(null);
    setSearchKey((k) => k + 1);
    requestAnimationFrame(() => document.getElementById('tree-search')?.focus());
  };
  const task = data?.tasks.find((x) => x.id === selected) ?? null;
  const canEdit = data !== null && data.tree.access !== 'viewer';
  const editedProject =
    dialog !== null && typeof dialog === 'object'
      ? (data?.projects.find((p) => p.id === dialog.project) ?? null)
      : null;
  const openProject = (projectId: string) => {
    if (canEdit) setDialog({ project: projectId });
  };
  const archivedHits = (found ?? []).filter((x) => x.status === 'archived');

  if (data === null || input === null || people === null) {
    return (
      <section class="page">
        <a href="/trees" class="back">
          ← {t('tree.back')}
        </a>
        {snapshot.loading ? <p class="muted">{t('common.loading')}</p> : null}
        <ErrorNote error={snapshot.error} onRetry={snapshot.reload} />
      </section>
    );
  }

  return (
    <section class="page wide">
      <a href="/trees" class="back">
        ← {t('tree.back')}
      </a>
      <div class="page-head">
        <h1>{data.tree.name}</h1>
        <div class="row">
          {data.tree.access === 'owner' ? (
            <div class="inline-style">
              <StyleSelect value={data.tree.style} onChange={(s) => void restyle(s)} />
            </div>
          ) : null}
          {data.tree.access === 'owner' ? (
            <a class="btn" href={`/trees/${id}/sharing`}>
              {t('sharing.link')}
            </a>
          ) : null}
          {canEdit ? (
            <>
              <button type="button" class="btn" onClick={() => setDialog('import')}>
                {t('csv.button')}
              </button>
              <button
                type="button"
                class="btn"
                onClick={() => {
                  if (!confirmLeave()) return;
                  setSelected(null);
                  setDialog('project');
                }}
              >
                {t('tree.newProject')}
              </button>
              <button
                type="button"
                class="btn primary"
                onClick={() => {
                  if (!confirmLeave()) return;
                  setSelected(null);
                  setDialog('task');
                }}
              >
                {t('tree.newTask')}
              </button>
            </>
          ) : null}
        </div>
      </div>
      <ErrorNote error={styleError} />
      <SearchBox key={searchKey} treeId={id} onResults={setFound} />
      {archivedHits.length > 0 ? (
        <div class="card archived-hits">
          <h2>{t('tree.foundArchived')}</h2>
          <ArchivedRows list={archivedHits} projects={data.projects} canWrite={canEdit} onRestored={restoreTask} />
        </div>
      ) : null}
      <div class={task !== null ? 'tree-layout' : 'tree-layout no-panel'}>
        <div class="stack">
          <div class="card drawing-card">
            <FreshNote fresh={fresh} names={names} />
            {data.tasks.length === 0 && data.projects.length === 0 ? <p class="empty">{t('tree.emptyTree')}</p> : null}
            <TreeDrawing
              input={input}
              style={data.tree.style}
              highlighted={highlighted}
              selectedId={selected}
              overdue={overdue}
              fresh={freshNames}
              onOpenTask={openTask}
              onOpenProject={openProject}
              labels={labels}
            />
          </div>
          <div class="card">
            <h2>{t('tree.listView')}</h2>
            <Tabs
              id="list"
              label={t('tree.listView')}
              tabs={[
                { name: 'tasks', label: t('tree.tasksTab') },
                { name: 'archived', label: t('tree.archivedTab') },
              ]}
              current={listTab}
              onChange={setListTab}
            >
              {listTab === 'tasks' && found !== null ? (
                <p class="list-filter-note">
                  <span>{t('listSearch.showing')}</span>
                  <button type="button" class="btn small" onClick={showWholeTree}>
                    {t('listSearch.showAll')}
                  </button>
                </p>
              ) : null}
              {listTab === 'tasks' ? (
                <TreeOutline
                  projects={listed!.projects}
                  tasks={listed!.tasks}
                  overdue={overdue}
                  fresh={freshNames}
                  selectedId={selected}
                  highlighted={highlighted}
                  canWrite={canEdit}
                  onOpenTask={openTask}
                  onOpenProject={openProject}
                  onDone={(x, done) => void markDone(x, done)}
                />
              ) : (
                <ArchivedList treeId={id} projects={data.projects} canWrite={canEdit} onRestored={restoreTask} />
              )}
            </Tabs>
          </div>
          <Activity
            treeId={id}
            people={people}
            names={names}
            canWrite={canEdit}
            fresh={data}
            changeId={changeId}
            onReverted={() => void revalidate()}
            onShowAll={() => route(`/trees/${id}`, true)}
          />
        </div>
        {task !== null ? (
          <TaskPanel
            key={task.id}
            task={task}
            projects={data.projects}
            people={people}
            access={data.tree.access}
            trees={writable}
            onSaved={saveTask}
            onMoved={movedTask}
            onDeleted={dropTask}
            onClose={closeTask}
          />
        ) : null}
      </div>
      {dialog === 'project' ? (
        <ItemDialog
          kind="project"
          treeId={id}
          projects={data.projects}
          onSaved={addProject}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {editedProject !== null ? (
        <ItemDialog
          kind="project"
          treeId={id}
          projects={data.projects}
          project={editedProject}
          trees={writable ?? undefined}
          contents={contentsOf(editedProject.id, data.projects, data.tasks)}
          onSaved={projectSaved}
          onDeleted={() => void snapshot.reload()}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {notice !== null ? <Notice notice={notice} onDone={hideNotice} /> : null}
      {dialog === 'import' ? (
        <ImportDialog treeId={id} onImported={() => void snapshot.reload()} onClose={() => setDialog(null)} />
      ) : null}
      {dialog === 'task' ? (
        <ItemDialog
          kind="task"
          treeId={id}
          projects={data.projects}
          onSaved={addTask}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}
