import type { TaskPatch } from '../../api/endpoints';
import type { Task } from '../../api/types';

/** What the task panel's fields hold: the task's editable fields, the deadline as typed. */
export type Draft = Required<
  Pick<TaskPatch, 'title' | 'text' | 'notes' | 'status' | 'color' | 'project_id' | 'tree_id'>
> & {
  deadline: string;
};

export function draftOf(task: Task): Draft {
  return {
    title: task.title,
    text: task.text,
    notes: task.notes,
    status: task.status,
    color: task.color,
    project_id: task.project_id,
    tree_id: task.tree_id,
    deadline: task.deadline ?? '',
  };
}

const DRAFT_KEYS = ['title', 'text', 'notes', 'status', 'color', 'project_id', 'tree_id', 'deadline'] as const;

/**
 * The task changed under the panel (a one-click Done, a save): the fields the person has not
 * touched follow it, the ones they edited keep their words.
 */
export function rebase(draft: Draft, from: Task, to: Task): Draft {
  const before = draftOf(from);
  const after = draftOf(to);
  const next = { ...draft };
  for (const key of DRAFT_KEYS) if (draft[key] === before[key]) Object.assign(next, { [key]: after[key] });
  return next;
}

/** Only what changed is sent, so a deadline kept as a timestamp is not rewritten as a date. */
export function changes(task: Task, draft: Draft): TaskPatch {
  const before = draftOf(task);
  const patch: TaskPatch = {};
  for (const key of DRAFT_KEYS) {
    if (key !== 'deadline' && draft[key] !== before[key]) Object.assign(patch, { [key]: draft[key] });
  }
  if (draft.deadline !== before.deadline) patch.deadline = draft.deadline === '' ? null : draft.deadline;
  return patch;
}
