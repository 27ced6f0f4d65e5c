import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './types.js';

/*
 * Trees, projects and tasks as every door returns them (SPEC "Resources and their fields",
 * CONTRACT §6), written once. These schemas are the wire shape: the HTTP layer serializes with them
 * and publishes them in the OpenAPI document (from which the web app's types are generated), and
 * the domain's record types are their `Static` (domain/records.ts). A new field is added here, in
 * the row type (store/schema.ts) and in its presenter (domain/records.ts); the compiler finds the rest.
 */

export const treeStyles = ['tidy-fan', 'space-colonization', 'lsystem'] as const;
export const taskStatuses = ['todo', 'open', 'done', 'deferred', 'archived'] as const;

export const TreeStyle = OneOf(treeStyles, { description: 'default tidy-fan' });

/** CONTRACT §16.2: the same field, with the same meaning, on trees, projects and tasks. */
const Version = (children: string) =>
  Type.Integer({
    minimum: 1,
    description:
      `Read-only. 1 at creation, raised by exactly one by each change of this record's own fields, however many fields it changes; ${children} ` +
      'A write that changes nothing leaves it. If-Match compares the ETag made from it.',
  });
export const TaskStatus = OneOf(taskStatuses);

export const Tree = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    style: TreeStyle,
    owner_id: Type.String(),
    access: OneOf(['owner', 'editor', 'viewer']),
    created_at: Timestamp,
    updated_at: Timestamp,
    version: Version("changes to the tree's projects and tasks do not raise it."),
  },
  { $id: 'Tree', title: 'Tree' },
);

/** A tree as the trees list shows it: the record, and when anything in it last changed. */
export const TreeListItem = Type.Object(
  {
    ...Tree.properties,
    last_activity_at: Type.String({
      format: 'date-time',
      description:
        "Read-only. When the tree last saw activity: the newest of its own updated_at, its tasks' and projects' " +
        'updated_at, and its newest history entry (so a deleted task counts too). Unlike updated_at, which is the ' +
        "tree record's own (names, style) and feeds its ETag, this moves whenever anything in the tree changes.",
    }),
    task_counts: Type.Object(
      {
        open: Type.Integer({ minimum: 0, description: 'tasks with status todo or open' }),
        done: Type.Integer({ minimum: 0, description: 'tasks with status done' }),
      },
      {
        description: "Read-only. The tree's tasks still to do and done (deferred and archived ones count in neither).",
      },
    ),
  },
  { title: 'TreeListItem' },
);

export const Project = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    parent_id: Nullable(Type.String()),
    name: Type.String(),
    description: Type.String(),
    color: Type.String(),
    position: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
    version: Version(
      'a move to another tree raises it (and those of the projects and tasks it carries); changes to its child projects and tasks do not.',
    ),
  },
  { $id: 'Project', title: 'Project' },
);

export const Task = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    project_id: Nullable(Type.String()),
    title: Type.String(),
    text: Type.String(),
    notes: Type.String(),
    status: TaskStatus,
    deadline: Nullable(Type.String()),
    color: Type.String(),
    position: Type.Integer(),
    completed_at: Nullable(Timestamp),
    created_by: Type.String(),
    assignee_ids: Type.Array(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    version: Version('a move, a status change and an assignment each raise it; comments and attachments do not.'),
  },
  { $id: 'Task', title: 'Task' },
);
