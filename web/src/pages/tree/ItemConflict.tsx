import { useMemo } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { Project, Tree } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { ConflictDialog, conflictRows, type FieldView } from '../../components/ConflictDialog';
import { projectPaths } from './outline';
import type { ItemConflict } from './itemSave';

/**
 * The conflict (412) of a tree's rename or restyle, or of a project's edit: each field that another
 * save changed since the dialog opened, and each the person edited, as the editor shows them.
 */
export function ItemConflictDialog({
  conflict,
  base,
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
  conflict: ItemConflict;
  /** The record as the dialog opened on it. */
  base: Tree | Project;
  projects: Project[];
  trees: Tree[];
  busy: boolean;
  error: string | null;
  onKeepTheirs(): void;
  onOverwrite(): void;
  onClose(): void;
}) {
  const t = useT();
  const rows = useMemo(() => {
    const edited = Object.keys(conflict.patch);
    if (conflict.kind === 'tree') {
      const fields: FieldView<Tree>[] = [
        { key: 'name', label: t('fields.name'), show: (x) => x.name },
        { key: 'style', label: t('fields.style'), show: (x) => t(`trees.styles.${x.style}`) },
      ];
      const current = conflict.current;
      return conflictRows(fields, base as Tree, current, { ...current, ...conflict.patch }, edited);
    }
    const paths = new Map(projectPaths(projects));
    const fields: FieldView<Project>[] = [
      { key: 'name', label: t('fields.name'), show: (x) => x.name },
      { key: 'description', label: t('fields.description'), show: (x) => x.description },
      { key: 'color', label: t('fields.color'), show: (x) => x.color.toLowerCase() },
      {
        key: 'parent_id',
        label: t('fields.parent'),
        show: (x) => (x.parent_id === null ? t('tree.topLevel') : (paths.get(x.parent_id) ?? x.parent_id)),
      },
      {
        key: 'tree_id',
        label: t('fields.tree'),
        show: (x) => trees.find((tree) => tree.id === x.tree_id)?.name ?? x.tree_id,
      },
    ];
    const current = conflict.current;
    return conflictRows(fields, base as Project, current, { ...current, ...conflict.patch }, edited);
  }, [conflict, base, projects, trees, t]);
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
