import type { Static } from '@sinclair/typebox';
import type { ProjectRow, TaskRow, TreeAccess, TreeRow } from './access.js';
import type {
  Project as ProjectSchema,
  Task as TaskSchema,
  Tree as TreeSchema,
  TreeListItem as TreeListItemSchema,
} from './schemas/records.js';

/**
 * The public shapes of CONTRACT §6: what every door returns for trees, projects and tasks. Each type
 * is the `Static` of its wire schema (schemas/records.ts), so the domain, the REST answers, the
 * OpenAPI document and the web app's generated types cannot drift; each presenter below is the one
 * place a row becomes its record.
 */
export { taskStatuses, treeStyles } from './schemas/records.js';
export type Tree = Static<typeof TreeSchema>;
export type TreeListItem = Static<typeof TreeListItemSchema>;
export type Project = Static<typeof ProjectSchema>;
export type Task = Static<typeof TaskSchema>;
export type TreeStyle = Tree['style'];
export type TaskStatus = Task['status'];
export const DEFAULT_COLOR = '#6b8e23';

export function presentTree(row: TreeRow, access: Pick<TreeAccess, 'role'>): Tree {
  return {
    id: row.id,
    name: row.name,
    style: row.style as TreeStyle,
    owner_id: row.owner_id,
    access: access.role,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

export function presentProject(row: ProjectRow): Project {
  return {
    id: row.id,
    tree_id: row.tree_id,
    parent_id: row.parent_id,
    name: row.name,
    description: row.description,
    color: row.color,
    position: row.position,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

export function presentTask(row: Omit<TaskRow, 'seq'>): Task {
  return {
    id: row.id,
    tree_id: row.tree_id,
    project_id: row.project_id,
    title: row.title,
    text: row.text,
    notes: row.notes,
    status: row.status as TaskStatus,
    deadline: row.deadline,
    color: row.color,
    position: row.position,
    completed_at: row.completed_at,
    created_by: row.created_by,
    assignee_ids: row.assignee_ids === '[]' ? [] : (JSON.parse(row.assignee_ids) as string[]),
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}
