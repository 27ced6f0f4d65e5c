import type { Project, Task } from '../../api/types';

/**
 * The list view narrowed to a search's matches: the tasks found (archived ones are listed apart)
 * and the projects on their way to the trunk, so each match keeps its place in the tree.
 */
export function narrowTo(
  found: readonly Task[],
  projects: readonly Project[],
  tasks: readonly Task[],
): { projects: Project[]; tasks: Task[] } {
  const ids = new Set(found.map((x) => x.id));
  const kept = tasks.filter((x) => ids.has(x.id));
  const byId = new Map(projects.map((p) => [p.id, p]));
  const onPath = new Set<string>();
  for (const task of kept) {
    let at = task.project_id;
    while (at !== null && !onPath.has(at)) {
      onPath.add(at);
      at = byId.get(at)?.parent_id ?? null;
    }
  }
  return { projects: projects.filter((p) => onPath.has(p.id)), tasks: kept };
}
