import type { Project } from '../../api/types';
import { projectPaths } from './outline';
import { Field } from '../../components/Field';

/** A project picker showing each project by its path ("Garden / Beds"), so equal names stay apart. */
export function ProjectSelect({
  label,
  projects,
  value,
  onChange,
  noneLabel,
}: {
  label: string;
  projects: Project[];
  value: string | null;
  onChange(id: string | null): void;
  noneLabel: string;
}) {
  const paths = projectPaths(projects);
  return (
    <Field label={label}>
      {(id) => (
        <select
          id={id}
          value={value ?? ''}
          onChange={(e) => onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
        >
          <option value="">{noneLabel}</option>
          {paths.map(([id, path]) => (
            <option key={id} value={id}>
              {path}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
