import { Type, type TProperties } from '@sinclair/typebox';
import { Id, Name, Nullable } from './common.js';
import {
  Project,
  Task,
  TaskStatus as Status,
  Tree,
  TreeListItem,
  TreeStyle as Style,
} from '../../domain/schemas/records.js';
import { CURSOR_MAX_LENGTH, DEFAULT_LIMIT, MAX_LIMIT } from '../../domain/paging.js';
import {
  BATCH_MAX,
  COLOR_PATTERN,
  DEADLINE_MAX,
  DESCRIPTION_MAX,
  NOTES_MAX,
  QUERY_MAX,
  POSITION_MAX,
  POSITION_MIN,
  PROJECT_NAME_MAX,
  TEXT_MAX,
  TITLE_MAX,
  TREE_NAME_MAX,
} from '../../domain/fields.js';

/** Trees, projects and tasks on the wire (SPEC "Resources and their fields", CONTRACT §6): the records are in domain/schemas/records.ts. */
export { Project, Task, Tree };

const Color = Type.String({ pattern: COLOR_PATTERN, description: 'e.g. #6b8e23' });
const Position = Type.Integer({ minimum: POSITION_MIN, maximum: POSITION_MAX });
const Deadline = Type.String({
  maxLength: DEADLINE_MAX,
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?([Zz]|[+-]\\d{2}:\\d{2}))?$',
  description:
    'YYYY-MM-DD (kept as a date) or a timestamp with a zone and 0 to 6 fractional digits, returned in UTC with the digits given',
});

const treeFields = { name: Name(TREE_NAME_MAX), style: Style };
export const TreeInput = Type.Object(
  { name: treeFields.name, style: Type.Optional(Style) },
  { additionalProperties: false, $id: 'TreeInput', title: 'TreeInput' },
);
export const TreePatch = Type.Partial(Type.Object(treeFields), {
  additionalProperties: false,
  $id: 'TreePatch',
  title: 'TreePatch',
});

const projectFields = {
  tree_id: Id,
  parent_id: Nullable(Id),
  name: Name(PROJECT_NAME_MAX),
  description: Type.String({ maxLength: DESCRIPTION_MAX }),
  color: Color,
  position: Position,
};
export const ProjectInput = Type.Object(
  { ...optional(projectFields), tree_id: projectFields.tree_id, name: projectFields.name },
  { additionalProperties: false, $id: 'ProjectInput', title: 'ProjectInput' },
);
export const ProjectPatch = Type.Partial(Type.Object(projectFields), {
  additionalProperties: false,
  $id: 'ProjectPatch',
  title: 'ProjectPatch',
});

const taskFields = {
  tree_id: Id,
  project_id: Nullable(Id),
  title: Name(TITLE_MAX),
  text: Type.String({ maxLength: TEXT_MAX }),
  notes: Type.String({ maxLength: NOTES_MAX }),
  status: Status,
  deadline: Nullable(Deadline),
  color: Color,
  position: Position,
};
export const TaskInput = Type.Object(
  { ...optional(taskFields), tree_id: taskFields.tree_id, title: taskFields.title },
  { additionalProperties: false, $id: 'TaskInput', title: 'TaskInput' },
);
export const TaskPatch = Type.Partial(Type.Object(taskFields), {
  additionalProperties: false,
  $id: 'TaskPatch',
  title: 'TaskPatch',
});

/** The version a write names as the one the record must still have (CONTRACT §16.2). */
export const ExpectedVersion = Type.Integer({
  minimum: 1,
  description: 'the version read last; a record that has another refuses the write (412 precondition_failed)',
});

/** An update of POST /tasks/batch: the task, the version it must still have, and any of TaskPatch's fields. */
export const TaskBatchUpdate = Type.Object(
  { id: Id, version: ExpectedVersion, ...TaskPatch.properties },
  { additionalProperties: false, title: 'TaskBatchUpdate' },
);
export const TaskBatchInput = Type.Object(
  {
    create: Type.Optional(Type.Array(TaskInput, { maxItems: BATCH_MAX })),
    update: Type.Optional(Type.Array(TaskBatchUpdate, { maxItems: BATCH_MAX })),
  },
  {
    additionalProperties: false,
    $id: 'TaskBatchInput',
    title: 'TaskBatchInput',
    description: `1 to ${BATCH_MAX} items in all, creates and updates together`,
  },
);

function optional<T extends TProperties>(fields: T) {
  return Type.Partial(Type.Object(fields)).properties;
}

export const TreeOnly = Type.Object({ tree: Tree });
export const ProjectOnly = Type.Object({ project: Project });
export const TaskOnly = Type.Object({ task: Task });
export const TaskBatchResult = Type.Object(
  {
    created: Type.Array(Task, { description: 'the creates, in input order' }),
    updated: Type.Array(Task, { description: 'the updates, in input order' }),
  },
  { $id: 'TaskBatchResult', title: 'TaskBatchResult' },
);
export const TreeSnapshot = Type.Object(
  {
    tree: Tree,
    projects: Type.Array(Project),
    tasks: Type.Array(Task, { description: 'every task that is not archived' }),
  },
  { $id: 'TreeSnapshot', title: 'TreeSnapshot' },
);

const NextCursor = Nullable(Type.String({ description: 'null on the last page' }));
export const TreeList = Type.Object({ items: Type.Array(TreeListItem), next_cursor: NextCursor });
export const ProjectList = Type.Object({ items: Type.Array(Project), next_cursor: NextCursor });
export const TaskList = Type.Object({ items: Type.Array(Task), next_cursor: NextCursor });

/** limit, cursor and updated_since: the paging parameters of every list and of search. */
export const pageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT })),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: CURSOR_MAX_LENGTH,
      description: 'opaque; from next_cursor; valid 15 minutes',
    }),
  ),
  updated_since: Type.Optional(
    Type.String({ maxLength: 64, description: 'ISO 8601 date-time with a zone; inclusive' }),
  ),
};
export const TreeListQuery = Type.Object(pageQuery);
/** Lists of a task's attachments and speech jobs: limit and cursor. */
export const CursorQuery = Type.Object({ limit: pageQuery.limit, cursor: pageQuery.cursor });
export const ProjectListQuery = Type.Object({ ...pageQuery, tree_id: Type.Optional(Id) });
export const TaskListQuery = Type.Object({
  ...pageQuery,
  tree_id: Type.Optional(Id),
  project_id: Type.Optional(Id),
  status: Type.Optional(Status),
  assignee_id: Type.Optional(Id),
  deadline_after: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        "YYYY-MM-DD or an ISO 8601 date-time with a zone; inclusive. Only tasks with a deadline at or after it. A date is that whole day in the user's timezone, and so is a date deadline.",
    }),
  ),
  deadline_before: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        "YYYY-MM-DD or an ISO 8601 date-time with a zone; inclusive. Only tasks with a deadline at or before it. A date is that whole day in the user's timezone, and so is a date deadline.",
    }),
  ),
});
export const DeleteProjectQuery = Type.Object({
  cascade: Type.Optional(Type.Boolean({ default: false, description: 'also remove child projects and tasks' })),
});

export const SearchQuery = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: QUERY_MAX,
    description:
      'terms split on white space; "a quoted run" is one term; every term literal, case-insensitive, substring; all must match',
  }),
  tree_id: Type.Optional(Id),
  ...pageQuery,
});
