import type { Task } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDeadline } from '../../i18n/format';

interface Props {
  task: Task;
  overdue: boolean;
  treeName: string;
  /** null: the task is in no project. */
  projectName: string | null;
  selected: boolean;
  onOpen(id: string): void;
}

/** One due task: a button named by its title that opens the panel, with its deadline, tree and project. */
export function UpcomingRow({ task, overdue, treeName, projectName, selected, onOpen }: Props) {
  const t = useT();
  const user = useUser();
  return (
    <li class="due-row" data-task={task.id}>
      <button type="button" class="due-open" aria-pressed={selected} onClick={() => onOpen(task.id)}>
        <svg class="swatch" viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
          <circle cx="5" cy="5" r="5" fill={task.color} />
        </svg>
        <span class="due-title">{task.title}</span>
      </button>
      <span class="due-meta">
        <span class={overdue ? 'due-when overdue-mark' : 'due-when'}>
          {overdue ? <span class="badge red">{t('due.overdue')}</span> : null}{' '}
          {formatDeadline(task.deadline!, user.timezone)}
        </span>
        <span class="due-where">
          {treeName}
          {projectName !== null ? ` › ${projectName}` : ''}
        </span>
      </span>
    </li>
  );
}
