// Deterministic sample trees for the layout tests and the picture script: `projects` projects
// (every `nestEvery`-th one nested under the previous, for depth), `tasks` tasks spread over
// them and the trunk, a few done, some archived.
import { makeRandom } from '../../web/src/tree/prng.js';
import type { LayoutInput, LayoutProject, LayoutTask } from '../../web/src/tree/types.js';

const COLORS = ['#e4572e', '#f3a712', '#29bf12', '#4ea5d9', '#a846a0', '#2e933c', '#e84855', '#3185fc'];
const STATUSES: LayoutTask['status'][] = ['todo', 'open', 'todo', 'done', 'deferred', 'todo', 'open', 'archived'];

export function sampleTree(opts: {
  projects: number;
  tasks: number;
  nestEvery?: number;
  treeId?: string;
}): LayoutInput {
  const random = makeRandom(`sample:${opts.projects}:${opts.tasks}:${opts.nestEvery ?? 0}`);
  const projects: LayoutProject[] = [];
  for (let i = 0; i < opts.projects; i++) {
    const nested = opts.nestEvery !== undefined && i > 0 && i % opts.nestEvery !== 0;
    projects.push({
      id: `p${String(i).padStart(3, '0')}`,
      parent_id: nested ? projects[i - 1]!.id : null,
      name: `Project ${i}`,
      color: COLORS[i % COLORS.length]!,
      position: i,
    });
  }
  const tasks: LayoutTask[] = [];
  for (let i = 0; i < opts.tasks; i++) {
    // Most tasks in a project, a few loose on the trunk.
    const project = projects.length > 0 && random() > 0.04 ? projects[Math.floor(random() * projects.length)]! : null;
    tasks.push({
      id: `t${String(i).padStart(5, '0')}`,
      project_id: project?.id ?? null,
      title: `Task ${i}`,
      color: COLORS[Math.floor(random() * COLORS.length)]!,
      status: STATUSES[Math.floor(random() * STATUSES.length)]!,
      position: Math.floor(random() * 1000),
    });
  }
  return { treeId: opts.treeId ?? 'tree-sample', name: 'Sample tree', projects, tasks };
}
