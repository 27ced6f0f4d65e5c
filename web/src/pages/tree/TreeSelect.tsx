import { trees as treesApi } from '../../api/endpoints';
import type { Project, Tree } from '../../api/types';
import { Field } from '../../components/Field';
import { useLoad } from '../../components/useLoad';
import { useT } from '../../i18n/use-t';

/** Where a task or a project can move: the trees the person may write to. */
export function TreeSelect({ trees, value, onChange }: { trees: Tree[]; value: string; onChange(id: string): void }) {
  const t = useT();
  return (
    <Field label={t('fields.tree')}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          {trees.map((tree) => (
            <option key={tree.id} value={tree.id}>
              {tree.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The projects of the tree chosen in a TreeSelect: this tree's as the page has them, another's read when chosen. */
export function useTreeProjects(chosen: string, here: string, projects: Project[]): Project[] {
  const other = useLoad(
    () => (chosen === here ? Promise.resolve(null) : treesApi.get(chosen).then((s) => s.projects)),
    [chosen, here],
  );
  return chosen === here ? projects : (other.data ?? []);
}
