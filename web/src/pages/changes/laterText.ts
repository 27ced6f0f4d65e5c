import { projects, tasks } from '../../api/endpoints';
import type { LaterChange } from '../../api/types';
import type { useT } from '../../i18n/use-t';

type T = ReturnType<typeof useT>;

/** The later changes of a 409, one per change: a caller's own words when it knows the change, else the records it touched. */
export async function describeLaterChanges(
  t: T,
  details: readonly LaterChange[],
  known: (changeId: string) => string | null = () => null,
): Promise<string[]> {
  const byChange = new Map<string, LaterChange[]>();
  for (const d of details) byChange.set(d.change_id, [...(byChange.get(d.change_id) ?? []), d]);
  return Promise.all(
    [...byChange].map(async ([changeId, records]) => {
      const said = known(changeId);
      if (said !== null) return said;
      const names = await Promise.all(records.map((r) => recordName(t, r)));
      return t('changes.laterRecord', { name: [...new Set(names)].join(', ') });
    }),
  );
}

/** A task's title or a project's name as it is now; one the person cannot read any more stays "a task". */
async function recordName(t: T, record: LaterChange): Promise<string> {
  const quote = (text: string) => t('history.quoted', { text });
  if (record.entity === 'task')
    return tasks.get(record.entity_id).then(
      (x) => quote(x.title),
      () => t('history.aTask'),
    );
  if (record.entity === 'project')
    return projects.get(record.entity_id).then(
      (x) => quote(x.name),
      () => t('history.aProject'),
    );
  return record.entity === 'tree' ? t('changes.nouns.tree', { count: 1 }) : record.entity;
}
