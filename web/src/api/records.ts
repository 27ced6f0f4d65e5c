/**
 * The records a person edits (trees, projects, tasks and a task's assignees): reads remember each
 * record's ETag and every edit is conditional on it (CONTRACT §16.2, ./versioned.ts).
 */
import { api, apiTagged, allPages, query } from './client';
import { forget, remember, writeIfUnchanged, type Shown } from './versioned';
import type {
  Page,
  Project,
  Task,
  TaskStatus,
  Tree,
  TreeListItem,
  TreeShape,
  TreeSnapshot,
  TreeStyleName,
} from './types';

const enc = encodeURIComponent;

/** The snapshot, whose ETag is the tree's (CONTRACT §16.2): a tree's edits send it back. */
async function readTree(id: string): Promise<TreeSnapshot> {
  const { body, etag } = await apiTagged<TreeSnapshot>('GET', `/trees/${enc(id)}`);
  remember('tree', id, etag, body.tree.version);
  return body;
}
async function readProject(id: string): Promise<Project> {
  const { body, etag } = await apiTagged<{ project: Project }>('GET', `/projects/${enc(id)}`);
  remember('project', id, etag, body.project.version);
  return body.project;
}
async function readTask(id: string): Promise<Task> {
  const { body, etag } = await apiTagged<{ task: Task }>('GET', `/tasks/${enc(id)}`);
  remember('task', id, etag, body.task.version);
  return body.task;
}

/** A record as shown, for a conditional write of it. */
const shownTree = (tree: { id: string; version?: number }): Shown => ({
  kind: 'tree',
  id: tree.id,
  version: tree.version,
  read: async () => (await readTree(tree.id)).tree.version,
});
const shownProject = (project: { id: string; version?: number }): Shown => ({
  kind: 'project',
  id: project.id,
  version: project.version,
  read: async () => (await readProject(project.id)).version,
});
const shownTask = (task: { id: string; version?: number }): Shown => ({
  kind: 'task',
  id: task.id,
  version: task.version,
  read: async () => (await readTask(task.id)).version,
});

/**
 * The snapshot again, only if it changed since `etag` (If-None-Match): null on 304, which costs
 * the server no snapshot. A new snapshot's tag is remembered, as a read's is.
 */
async function revalidateTree(id: string, etag: string): Promise<{ snapshot: TreeSnapshot; etag: string } | null> {
  const answer = await apiTagged<TreeSnapshot | null>('GET', `/trees/${enc(id)}`, undefined, { ifNoneMatch: etag });
  if (answer.body === null || answer.etag === null) return null;
  remember('tree', id, answer.etag, answer.body.tree.version);
  return { snapshot: answer.body, etag: answer.etag };
}

/** GET /tree-shapes takes at most this many trees at once. */
const SHAPES_PER_REQUEST = 100;

export const trees = {
  list: () => allPages<TreeListItem>('/trees'),
  /** Each tree's drawing without its words, for the cards (CONTRACT §18): one request per 100 trees. */
  shapes: async (ids: readonly string[]): Promise<Map<string, TreeShape>> => {
    const requests: Promise<{ items: TreeShape[] }>[] = [];
    for (let i = 0; i < ids.length; i += SHAPES_PER_REQUEST)
      requests.push(api('GET', `/tree-shapes${query({ ids: ids.slice(i, i + SHAPES_PER_REQUEST).join(',') })}`));
    const pages = await Promise.all(requests);
    return new Map(pages.flatMap((page) => page.items.map((shape) => [shape.tree_id, shape] as const)));
  },
  get: readTree,
  revalidate: revalidateTree,
  create: async (name: string, style: TreeStyleName) => {
    const { body, etag } = await apiTagged<{ tree: Tree }>('POST', '/trees', { name, style });
    remember('tree', body.tree.id, etag, body.tree.version);
    return body.tree;
  },
  /** Sent only if the tree is as shown (If-Match); else 412, which the app answers with the conflict dialog. */
  update: (tree: { id: string; version?: number }, patch: { name?: string; style?: TreeStyleName }) =>
    writeIfUnchanged(
      shownTree(tree),
      (ifMatch) => apiTagged<{ tree: Tree }>('PATCH', `/trees/${enc(tree.id)}`, patch, { ifMatch }),
      (a) => a.tree.version,
    ).then((a) => a.tree),
  remove: (id: string) => api<unknown>('DELETE', `/trees/${enc(id)}`).then(() => forget('tree', id)),
};

export type ProjectPatch = Partial<Pick<Project, 'name' | 'description' | 'color' | 'parent_id' | 'tree_id'>>;
export const projects = {
  get: readProject,
  create: async (input: { tree_id: string; name: string; parent_id?: string | null }) => {
    const { body, etag } = await apiTagged<{ project: Project }>('POST', '/projects', input);
    remember('project', body.project.id, etag, body.project.version);
    return body.project;
  },
  /** A new tree_id moves the project with its sub-projects and their tasks (CONTRACT §6). Conditional, as trees.update. */
  update: (project: { id: string; version?: number }, patch: ProjectPatch) =>
    writeIfUnchanged(
      shownProject(project),
      (ifMatch) => apiTagged<{ project: Project }>('PATCH', `/projects/${enc(project.id)}`, patch, { ifMatch }),
      (a) => a.project.version,
    ).then((a) => a.project),
  /** With everything inside it: the app asks first, naming what goes. */
  remove: (id: string) => api<unknown>('DELETE', `/projects/${enc(id)}?cascade=true`).then(() => forget('project', id)),
  /** Every project of every tree the person sees. */
  list: () => allPages<Project>('/projects'),
};

/** A bound below any deadline: a bound, either one, leaves out the tasks that have none. */
const EARLIEST_DEADLINE = '1000-01-01';

/** A new tree_id moves the task to that tree (its project_id is cleared unless one of that tree is given). */
export type TaskPatch = Partial<
  Pick<Task, 'title' | 'text' | 'notes' | 'status' | 'deadline' | 'color' | 'project_id' | 'tree_id'>
>;
export const tasks = {
  create: async (input: { tree_id: string; title: string; project_id?: string | null }) => {
    const { body, etag } = await apiTagged<{ task: Task }>('POST', '/tasks', input);
    remember('task', body.task.id, etag, body.task.version);
    return body.task;
  },
  /** Conditional, as trees.update: `task` is the task as the person saw it. */
  update: (task: { id: string; version?: number }, patch: TaskPatch) =>
    writeIfUnchanged(
      shownTask(task),
      (ifMatch) => apiTagged<{ task: Task }>('PATCH', `/tasks/${enc(task.id)}`, patch, { ifMatch }),
      (a) => a.task.version,
    ).then((a) => a.task),
  remove: (id: string) => api<unknown>('DELETE', `/tasks/${enc(id)}`).then(() => forget('task', id)),
  /** A tree's archived tasks, which its snapshot leaves out (CONTRACT §6). */
  archived: (treeId: string) => allPages<Task>('/tasks', { tree_id: treeId, status: 'archived' }),
  get: readTask,
  search: (q: string, treeId: string) => api<Page<Task>>('GET', `/search${query({ q, tree_id: treeId, limit: 200 })}`),
  /** Every task with a deadline in every tree the person sees, of one status (CONTRACT §18). */
  withDeadline: (status: TaskStatus, assigneeId?: string) =>
    allPages<Task>('/tasks', { deadline_after: EARLIEST_DEADLINE, status, assignee_id: assigneeId }),
};

export const assignees = {
  /** Conditional on the task, as tasks.update. */
  set: (task: { id: string; version?: number }, userIds: string[]) =>
    writeIfUnchanged(
      shownTask(task),
      (ifMatch) =>
        apiTagged<{ task: Task }>('PUT', `/tasks/${enc(task.id)}/assignees`, { user_ids: userIds }, { ifMatch }),
      (a) => a.task.version,
    ).then((a) => a.task),
};
