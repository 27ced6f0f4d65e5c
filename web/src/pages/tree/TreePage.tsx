import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { members, trees } from '../../api/endpoints';
import type { Project, Task, TreeSnapshot, TreeStyleName } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { messageTemplate } from '../../i18n/template';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
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

type Dialog = 'project' | 'task' | 'import' | null;

export function TreePage() {
  const t = useT();
  const id = useRoute().params.id ?? '';
  const user = useUser();
  const snapshot = useLoad(() => trees.get(id), [id]);
  // Members name the people in comments, assignees and history; a failure leaves them unnamed, never blocks the tree.
  const team = useLoad(() => members.list(id).catch(() => []), [id]);
  const [selected, setSelected] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const data = snapshot.data;
  usePageTitle(data?.tree.name ?? t('nav.trees'));

  const edit = (change: (s: TreeSnapshot) => TreeSnapshot) => snapshot.setData((s) => (s === null ? s : change(s)));
  const addProject = (p: Project) => edit((s) => ({ ...s, projects: [...s.projects, p] }));
  const addTask = (task: Task) => {
    edit((s) => ({ ...s, tasks: [...s.tasks, task] }));
    setSelected(task.id);
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
    setSelected(null);
  };
  const { error: styleError, run: restyle } = useSubmit(async (style: TreeStyleName) => {
    const tree = await trees.update(id, { style });
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
        : peopleOf(data.tree, team.data ?? [], user, {
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
    return {
      drawing: t('tree.drawing', { name: treeName }),
      task: (x: LayoutTask) => taskLabel({ title: x.title, status: status(x.status) }),
      project: (p: { name: string }) => t('tree.projectLabel', { name: p.name }),
    };
  }, [t, treeName]);
  const task = data?.tasks.find((x) => x.id === selected) ?? null;
  const canEdit = data !== null && data.tree.access !== 'viewer';

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
      <SearchBox treeId={id} onResults={(ids) => setHighlighted(ids ?? new Set())} />
      <div class={task !== null ? 'tree-layout' : 'tree-layout no-panel'}>
        <div class="stack">
          <div class="card drawing-card">
            {data.tasks.length === 0 && data.projects.length === 0 ? <p class="empty">{t('tree.emptyTree')}</p> : null}
            <TreeDrawing
              input={input}
              style={data.tree.style}
              highlighted={highlighted}
              selectedId={selected}
              onOpenTask={setSelected}
              labels={labels}
            />
          </div>
          <div class="card">
            <h2>{t('tree.listView')}</h2>
            <TreeOutline
              projects={data.projects}
              tasks={data.tasks}
              selectedId={selected}
              highlighted={highlighted}
              onOpenTask={setSelected}
            />
          </div>
          <Activity treeId={id} people={people} names={names} canWrite={canEdit} />
        </div>
        {task !== null ? (
          <TaskPanel
            key={task.id}
            task={task}
            projects={data.projects}
            people={people}
            access={data.tree.access}
            onSaved={saveTask}
            onDeleted={dropTask}
            onClose={() => setSelected(null)}
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
