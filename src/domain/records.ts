import type { ProjectRow, TaskRow, TreeAccess, TreeRole, TreeRow } from './access.js';

/** The public shapes of CONTRACT §6: what every door returns for trees, projects and tasks. */
export const treeStyles = ['tidy-fan', 'space-colonization', 'lsystem'] as const;
export type TreeStyle = (typeof treeStyles)[number];
export const taskStatuses = ['todo', 'open', 'done', 'deferred', 'archived'] as const;
export type TaskStatus = (typeof taskStatuses)[number];
export const DEFAULT_COLOR = '#6b8e23';

export interface Tree {
  id: string;
  name: string;
  style: TreeStyle;
  owner_id: string;
  access: TreeRole;
  created_at: string;
  updated_at: string;
}

export interface Project {
  id: string;
  tree_id: string;
  parent_id: string | null;
  name: string;
  description: string;
  color: string;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface Task {
  id: string;
  tree_id: string;
  project_id: string | null;
  title: string;
  text: string;
  notes: string;
  status: TaskStatus;
  deadline: string | null;
  color: string;
  position: number;
  completed_at: string | null;
  created_by: string;
  assignee_ids: string[];
  created_at: string;
  updated_at: string;
}

export function presentTree(row: TreeRow, access: Pick<TreeAccess, 'role'>): Tree {
  return {
    id: row.id,
    name: row.name,
    style: row.style as TreeStyle,
    owner_id: row.owner_id,
    access: access.role,
    created_at: row.created_at,
    updated_at: row.updated_at,
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
  };
}

export function presentTask(row: TaskRow): Task {
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
  };
}
