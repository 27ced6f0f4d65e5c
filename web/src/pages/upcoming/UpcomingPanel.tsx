import { useMemo } from 'preact/hooks';
import { members } from '../../api/endpoints';
import type { Project, Task, TreeListItem } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { useLoad } from '../../components/useLoad';
import { TaskPanel } from '../tree/TaskPanel';
import { peopleOf } from '../tree/people';

interface Props {
  task: Task;
  /** The task's tree from the trees list (null while it loads). */
  tree: TreeListItem | null;
  trees: TreeListItem[] | null;
  /** Every project the person sees; the panel offers those of the task's tree. */
  projects: Project[];
  onSaved(task: Task): void;
  /** Moved to another tree or deleted: it leaves the list only if it no longer qualifies, which the caller decides. */
  onGone(id: string): void;
  onClose(): void;
}

/** The tree page's task panel, opened in place on Upcoming with what it needs of the task's tree. */
export function UpcomingPanel({ task, tree, trees, projects, onSaved, onGone, onClose }: Props) {
  const t = useT();
  const user = useUser();
  const team = useLoad(() => members.list(task.tree_id).catch(() => ({ items: [], owner_name: null })), [task.tree_id]);
  const people = useMemo(
    () =>
      tree === null
        ? null
        : peopleOf(tree, team.data ?? { items: [], owner_name: null }, user, {
            owner: t('people.owner'),
            someone: t('people.someone'),
            deleted: t('people.deleted'),
          }),
    [tree, team.data, user, t],
  );
  const own = useMemo(() => projects.filter((p) => p.tree_id === task.tree_id), [projects, task.tree_id]);
  const writable = useMemo(() => trees?.filter((x) => x.access !== 'viewer') ?? null, [trees]);
  if (tree === null || people === null) return <p class="muted">{t('common.loading')}</p>;
  return (
    <TaskPanel
      task={task}
      projects={own}
      people={people}
      access={tree.access}
      trees={writable}
      onSaved={onSaved}
      onMoved={onSaved}
      onDeleted={onGone}
      onClose={onClose}
    />
  );
}
