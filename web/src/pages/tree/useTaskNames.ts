import { useEffect, useMemo, useState } from 'preact/hooks';
import { tasks } from '../../api/endpoints';
import type { HistoryEntry } from '../../api/types';
import type { Names } from './historyText';

/** The tasks an entry names: its own, or the one a comment or file belongs to. */
function taskIdsOf(entry: HistoryEntry): string[] {
  const ids = entry.entity === 'task' ? [entry.entity_id] : [];
  const taskId = entry.changes.task_id?.to;
  if (typeof taskId === 'string') ids.push(taskId);
  return ids;
}

/**
 * Names for the entries shown. Tasks no longer in the drawing (archived, or moved to a tree the
 * person also sees) are named by reading them once; one the person cannot read stays "a task".
 */
export function useTaskNames(items: readonly HistoryEntry[], names: Names): Names {
  const [read, setRead] = useState<ReadonlyMap<string, string | null>>(new Map());
  const missing = useMemo(
    () => [...new Set(items.flatMap(taskIdsOf))].filter((id) => names.task(id) === null && !read.has(id)),
    [items, names, read],
  );
  useEffect(() => {
    if (missing.length === 0) return;
    let live = true;
    void Promise.all(
      missing.map((id) =>
        tasks.get(id).then(
          (task) => [id, task.title] as const,
          () => [id, null] as const,
        ),
      ),
    ).then((found) => {
      if (live) setRead((old) => new Map([...old, ...found]));
    });
    return () => {
      live = false;
    };
  }, [missing]);
  return useMemo<Names>(
    () => ({ task: (id) => names.task(id) ?? read.get(id) ?? null, project: names.project }),
    [names, read],
  );
}
