import { useMemo } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { TaskPatch } from '../../api/endpoints';
import type { Project, Task, Tree } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { ConflictDialog, conflictRows, type FieldView } from '../../components/ConflictDialog';
import { projectPaths } from './outline';

/**
 * The task panel's conflict (412): the fields another save changed since the panel showed the task,
 * and the ones the person edited, each written as the panel shows it (a project by its path, a
 * status in words).
 */
export function TaskConflict({
  base,
  current,
  patch,
  projects,
  trees,
  busy,
  error,
  onKeepTheirs,
  onOverwrite,
  onClose,
  returnFocus,
}: {
  returnFocus: RefObject<HTMLElement | null>;
  base: Task;
  current: Task;
  patch: TaskPatch;
  projects: Project[];
  trees: Tree[] | null;
  busy: boolean;
  error: string | null;
  onKeepTheirs(): void;
  onOverwrite(): void;
  onClose(): void;
}) {
  const t = useT();
  const rows = useMemo(() => {
    const paths = new Map(projectPaths(projects));
    const fields: FieldView<Task>[] = [
      { key: 'title', label: t('fields.title'), show: (x) => x.title },
      { key: 'status', label: t('fields.status'), show: (x) => t(`status.${x.status}`) },
      { key: 'deadline', label: t('fields.deadline'), show: (x) => x.deadline ?? '' },
      {
        key: 'project_id',
        label: t('fields.project'),
        show: (x) => (x.project_id === null ? t('tree.noProject') : (paths.get(x.project_id) ?? x.project_id)),
      },
      { key: 'color', label: t('fields.color'), show: (x) => x.color.toLowerCase() },
      {
        key: 'tree_id',
        label: t('fields.tree'),
        show: (x) => trees?.find((tree) => tree.id === x.tree_id)?.name ?? x.tree_id,
      },
      { key: 'text', label: t('fields.text'), show: (x) => x.text },
      { key: 'notes', label: t('fields.notes'), show: (x) => x.notes },
    ];
    return conflictRows(fields, base, current, { ...current, ...patch }, Object.keys(patch));
  }, [base, current, patch, projects, trees, t]);
  return (
    <ConflictDialog
      rows={rows}
      busy={busy}
      error={error}
      onKeepTheirs={onKeepTheirs}
      onOverwrite={onOverwrite}
      onClose={onClose}
      returnFocus={returnFocus}
    />
  );
}
