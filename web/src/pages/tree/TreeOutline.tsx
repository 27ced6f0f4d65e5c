import type { Task } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDeadline } from '../../i18n/format';
import { buildOutline, type OutlineNode } from './outline';
import type { Project } from '../../api/types';

interface Props {
  projects: Project[];
  tasks: Task[];
  selectedId: string | null;
  highlighted: ReadonlySet<string>;
  onOpenTask(id: string): void;
}

/** The same tree as the drawing, as nested lists: projects as headings of their lists, tasks as buttons. */
export function TreeOutline({ projects, tasks, selectedId, highlighted, onOpenTask }: Props) {
  const t = useT();
  const user = useUser();
  const { roots, loose } = buildOutline(projects, tasks);
  const taskItem = (task: Task) => (
    <li key={task.id}>
      <button
        type="button"
        class={`outline-task${task.status === 'done' ? ' done' : ''}${highlighted.has(task.id) ? ' hit' : ''}`}
        aria-pressed={selectedId === task.id}
        onClick={() => onOpenTask(task.id)}
      >
        <svg class="swatch" viewBox="0 0 10 10" width="10" height="10" aria-hidden="true"><circle cx="5" cy="5" r="5" fill={task.color} /></svg>
        <span class="outline-title">{task.title}</span>
        {task.deadline !== null ? <span class="muted small-text">{formatDeadline(task.deadline, user.timezone)}</span> : null}
        <span class="badge grey">{t(`status.${task.status}`)}</span>
      </button>
    </li>
  );
  const projectItem = (node: OutlineNode) => (
    <li key={node.project.id} class="outline-project">
      <span class="outline-project-name">{node.project.name}</span>
      <span class="muted small-text"> · {t('tree.tasksCount', { count: node.tasks.length })}</span>
      {node.children.length + node.tasks.length > 0 ? (
        <ul>
          {node.children.map(projectItem)}
          {node.tasks.map(taskItem)}
        </ul>
      ) : null}
    </li>
  );
  return (
    <ul class="outline">
      {roots.map(projectItem)}
      {loose.length > 0 ? (
        <li class="outline-project">
          <span class="outline-project-name muted">{t('tree.noProject')}</span>
          <ul>{loose.map(taskItem)}</ul>
        </li>
      ) : null}
    </ul>
  );
}
