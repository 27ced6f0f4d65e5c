import { TASK_STATUSES, type Task } from '../../api/types';
import { useMemo, useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDeadline } from '../../i18n/format';
import { buildOutline, taskCount, type OutlineNode } from './outline';
import type { Project } from '../../api/types';

/** Rows a project lists before its "Show all" button. */
export const FIRST_ROWS = 50;

interface Props {
  projects: Project[];
  tasks: Task[];
  selectedId: string | null;
  highlighted: ReadonlySet<string>;
  /** A viewer gets no Done box, and project names that are plain text. */
  canWrite: boolean;
  onOpenTask(id: string): void;
  onOpenProject(id: string): void;
  /** The row's `Done` box: done when ticked, back to "To do" when cleared. */
  onDone(task: Task, done: boolean): void;
  /** Tasks whose deadline has passed: their rows say so. */
  overdue?: ReadonlySet<string>;
  /** Tasks an agent just added or changed, with the agent's name: their rows say so for a few seconds. */
  fresh?: ReadonlyMap<string, string>;
}

/** The same tree as the drawing, as nested lists: projects as headings of their lists, tasks as buttons. */
export function TreeOutline({
  projects,
  tasks,
  selectedId,
  highlighted,
  canWrite,
  onOpenTask,
  onOpenProject,
  onDone,
  overdue,
  fresh,
}: Props) {
  const t = useT();
  const user = useUser();
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const { roots, loose } = useMemo(() => buildOutline(projects, tasks), [projects, tasks]);
  // The status words once per language, not once per task: 10,000 i18next calls are a visible pause.
  const statusWord = useMemo(
    () => Object.fromEntries(TASK_STATUSES.map((s) => [s, t(`status.${s}`)])) as Record<Task['status'], string>,
    [t],
  );
  const doneWord = t('tree.doneBox');
  const overdueWord = t('due.overdue');
  const taskItem = (task: Task) => (
    <li key={task.id} class="outline-task-row" data-row-task={task.id}>
      {canWrite ? (
        <input
          type="checkbox"
          class="outline-done"
          aria-label={doneWord}
          checked={task.status === 'done'}
          onChange={(e) => onDone(task, e.currentTarget.checked)}
        />
      ) : null}
      <button
        type="button"
        class={`outline-task${task.status === 'done' ? ' done' : ''}${highlighted.has(task.id) ? ' hit' : ''}${fresh?.has(task.id) ? ' fresh' : ''}`}
        aria-pressed={selectedId === task.id}
        onClick={() => onOpenTask(task.id)}
      >
        <svg class="swatch" viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
          <circle cx="5" cy="5" r="5" fill={task.color} />
        </svg>
        <span class="outline-title">{task.title}</span>
        {task.deadline !== null ? (
          <span class={overdue?.has(task.id) ? 'small-text overdue-mark' : 'muted small-text'}>
            {overdue?.has(task.id) ? <span class="badge red">{overdueWord}</span> : null}{' '}
            {formatDeadline(task.deadline, user.timezone)}
          </span>
        ) : null}
        <span class="badge grey">{statusWord[task.status]}</span>
        {fresh?.has(task.id) ? <span class="badge fresh">{t('fresh.by', { agent: fresh.get(task.id)! })}</span> : null}
      </button>
    </li>
  );
  // A project's first rows, and the rest on request (or when one of them is selected or found):
  // 10,000 buttons are no list to read, and building them doubled the time a big tree takes to
  // show. Every task stays reachable: by this button, and in the drawing.
  const showAll = (key: string, button: HTMLElement) => {
    // The button gives way to the row that was behind it; focus goes there, not to the page.
    const row = button.closest('li')!;
    const list = row.parentElement!;
    const at = [...list.children].indexOf(row);
    setShown((s) => new Set(s).add(key));
    requestAnimationFrame(() => list.children[at]?.querySelector('button')?.focus());
  };
  const taskRows = (key: string, list: Task[]) => {
    if (
      list.length <= FIRST_ROWS ||
      shown.has(key) ||
      list.some((x) => x.id === selectedId || highlighted.has(x.id) || fresh?.has(x.id))
    )
      return list.map(taskItem);
    return [
      ...list.slice(0, FIRST_ROWS).map(taskItem),
      <li key={`more:${key}`}>
        <button type="button" class="btn ghost small" onClick={(e) => showAll(key, e.currentTarget)}>
          {t('tree.showAllTasks', { count: list.length })}
        </button>
      </li>,
    ];
  };
  const projectItem = (node: OutlineNode) => (
    <li key={node.project.id} class="outline-project">
      {canWrite ? (
        <button
          type="button"
          class="outline-project-name"
          aria-haspopup="dialog"
          onClick={() => onOpenProject(node.project.id)}
        >
          {node.project.name}
        </button>
      ) : (
        <span class="outline-project-name">{node.project.name}</span>
      )}
      <span class="muted small-text"> · {t('tree.tasksCount', { count: taskCount(node) })}</span>
      {node.children.length + node.tasks.length > 0 ? (
        <ul>
          {node.children.map(projectItem)}
          {taskRows(node.project.id, node.tasks)}
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
          <ul>{taskRows('', loose)}</ul>
        </li>
      ) : null}
    </ul>
  );
}
