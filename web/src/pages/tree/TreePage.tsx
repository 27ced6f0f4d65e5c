import { useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { trees } from '../../api/endpoints';
import type { Project, Task, TreeSnapshot, TreeStyleName } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useLoad } from '../../components/useLoad';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { usePageTitle } from '../../components/usePageTitle';
import { TreeDrawing, type LayoutInput } from '../../components/drawing';
import { StyleSelect } from '../trees/TreeDialog';
import { TreeOutline } from './TreeOutline';
import { TaskPanel } from './TaskPanel';
import { SearchBox } from './SearchBox';
import { NewProjectDialog, NewTaskDialog } from './NewItemDialogs';

type Dialog = 'project' | 'task' | null;

export function TreePage() {
  const t = useT();
  const id = useRoute().params.id ?? '';
  const snapshot = useLoad(() => trees.get(id), [id]);
  const [selected, setSelected] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [styleError, setStyleError] = useState<string | null>(null);
  const data = snapshot.data;
  usePageTitle(data?.tree.name ?? t('nav.trees'));

  const edit = (change: (s: TreeSnapshot) => TreeSnapshot) => snapshot.setData((s) => (s === null ? s : change(s)));
  const addProject = (p: Project) => edit((s) => ({ ...s, projects: [...s.projects, p] }));
  const addTask = (task: Task) => {
    edit((s) => ({ ...s, tasks: [...s.tasks, task] }));
    setSelected(task.id);
  };
  // Archived tasks leave the snapshot (CONTRACT §6), as they do on the next load.
  const saveTask = (task: Task) => edit((s) => ({ ...s, tasks: task.status === 'archived' ? s.tasks.filter((x) => x.id !== task.id) : s.tasks.map((x) => (x.id === task.id ? task : x)) }));
  const dropTask = (taskId: string) => {
    edit((s) => ({ ...s, tasks: s.tasks.filter((x) => x.id !== taskId) }));
    setSelected(null);
  };
  async function restyle(style: TreeStyleName) {
    setStyleError(null);
    try {
      const tree = await trees.update(id, { style });
      edit((s) => ({ ...s, tree }));
    } catch (e) {
      setStyleError(messageOf(e));
    }
  }

  const input = useMemo<LayoutInput | null>(
    () => (data === null ? null : { treeId: data.tree.id, name: data.tree.name, projects: data.projects, tasks: data.tasks }),
    [data],
  );
  const task = data?.tasks.find((x) => x.id === selected) ?? null;
  const canEdit = data !== null && data.tree.access !== 'viewer';

  if (data === null || input === null) {
    return (
      <section class="page">
        <a href="/trees" class="back">← {t('tree.back')}</a>
        {snapshot.loading ? <p class="muted">{t('common.loading')}</p> : null}
        <ErrorNote error={snapshot.error} onRetry={snapshot.reload} />
      </section>
    );
  }

  return (
    <section class="page wide">
      <a href="/trees" class="back">← {t('tree.back')}</a>
      <div class="page-head">
        <h1>{data.tree.name}</h1>
        <div class="row">
          {data.tree.access === 'owner' ? <div class="inline-style"><StyleSelect value={data.tree.style} onChange={(s) => void restyle(s)} /></div> : null}
          {canEdit ? (
            <>
              <button type="button" class="btn" onClick={() => { setSelected(null); setDialog('project'); }}>{t('tree.newProject')}</button>
              <button type="button" class="btn primary" onClick={() => { setSelected(null); setDialog('task'); }}>{t('tree.newTask')}</button>
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
              labels={{
                drawing: t('tree.drawing', { name: data.tree.name }),
                task: (x) => t('tree.taskLabel', { title: x.title, status: t(`status.${x.status}`) }),
                project: (p) => t('tree.projectLabel', { name: p.name }),
              }}
            />
          </div>
          <div class="card">
            <h2>{t('tree.listView')}</h2>
            <TreeOutline projects={data.projects} tasks={data.tasks} selectedId={selected} highlighted={highlighted} onOpenTask={setSelected} />
          </div>
        </div>
        {task !== null ? (
          <TaskPanel key={task.id} task={task} projects={data.projects} onSaved={saveTask} onDeleted={dropTask} onClose={() => setSelected(null)} />
        ) : null}
      </div>
      {dialog === 'project' ? <NewProjectDialog treeId={id} all={data.projects} onCreated={addProject} onClose={() => setDialog(null)} /> : null}
      {dialog === 'task' ? <NewTaskDialog treeId={id} all={data.projects} initialProject={null} onCreated={addTask} onClose={() => setDialog(null)} /> : null}
    </section>
  );
}
