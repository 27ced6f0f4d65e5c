import { useState } from 'preact/hooks';
import { tasks } from '../../api/endpoints';
import type { Project, Task } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useLoad } from '../../components/useLoad';
import { useSubmit } from '../../components/useSubmit';
import { ErrorNote } from '../../components/ErrorNote';
import { projectPaths } from './outline';

/** Archived tasks, each with `Restore`, which brings it back to the tree as "To do". */
export function ArchivedRows({
  list,
  projects,
  canWrite,
  onRestored,
}: {
  list: Task[];
  projects: Project[];
  canWrite: boolean;
  onRestored(task: Task): void;
}) {
  const t = useT();
  const paths = new Map(projectPaths(projects));
  const { error, run: restore } = useSubmit(async (task: Task) => {
    onRestored(await tasks.update(task, { status: 'todo' }));
  });
  return (
    <>
      <ul class="archived">
        {list.map((task) => (
          <li key={task.id} class="archived-row">
            <span class="archived-title">
              {task.title}
              {task.project_id !== null && paths.has(task.project_id) ? (
                <span class="muted small-text"> · {paths.get(task.project_id)}</span>
              ) : null}
            </span>
            {canWrite ? (
              <button type="button" class="btn small" onClick={() => void restore(task)}>
                {t('tree.restore')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      <ErrorNote error={error} />
    </>
  );
}

/** The `Archived` tab: the tree's archived tasks, read when the tab opens. */
export function ArchivedList({
  treeId,
  projects,
  canWrite,
  onRestored,
}: {
  treeId: string;
  projects: Project[];
  canWrite: boolean;
  onRestored(task: Task): void;
}) {
  const t = useT();
  const archived = useLoad(() => tasks.archived(treeId), [treeId]);
  const [restored, setRestored] = useState<ReadonlySet<string>>(new Set());
  const list = (archived.data ?? []).filter((task) => !restored.has(task.id));
  if (archived.data === null)
    return archived.loading ? (
      <p class="muted">{t('common.loading')}</p>
    ) : (
      <ErrorNote error={archived.error} onRetry={archived.reload} />
    );
  if (list.length === 0) return <p class="muted">{t('tree.noArchived')}</p>;
  return (
    <ArchivedRows
      list={list}
      projects={projects}
      canWrite={canWrite}
      onRestored={(task) => {
        setRestored((s) => new Set(s).add(task.id));
        onRestored(task);
      }}
    />
  );
}
