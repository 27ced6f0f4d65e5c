import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { IdParams } from '../schemas/common.js';
import {
  CursorQuery,
  ExpectedVersion,
  Project,
  ProjectInput,
  ProjectList,
  ProjectListQuery,
  ProjectPatch,
  Task,
  TaskBatchUpdate,
  TaskInput,
  TaskList,
  TaskListQuery,
  TaskOnly,
  TaskPatch,
  TreeList,
  TreeListQuery,
  TreeSnapshot,
} from '../schemas/data.js';
import { AssigneesInput, Comment, CommentList, HistoryList, PostInput } from '../schemas/teams.js';
import { BATCH_MAX } from '../../domain/fields.js';
import { AttachmentLink } from '../rest/attachments.js';
import { Attachment, SpeechJob } from '../../domain/schemas/files.js';
import { SearchQuery } from '../schemas/data.js';
import { OneJob, TranscribeAttachment } from '../rest/speech.js';
import { compileBodySchema } from '../validation.js';

/*
 * MCP tool schemas are the REST schemas (CONTRACT §9: inputs mirror the REST query and body
 * fields; results are the REST response bodies), so a bound or an enum changed there changes
 * here too. Inputs are closed to unknown properties, as every REST body is.
 */

/** What a schema is as JSON: TypeBox's symbols dropped, named references replaced by what they name. */
function plain(schema: TSchema, named: Record<string, TSchema> = {}): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) => {
    if (key === '$id') return undefined;
    if (typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string') {
      const target = named[(value as { $ref: string }).$ref];
      if (target === undefined) throw new Error(`MCP schema: no schema named ${(value as { $ref: string }).$ref}`);
      return plain(target);
    }
    return value as object;
  }) as Record<string, unknown>;
}

/** A tool's input: its JSON Schema as tools/list shows it, and the same schema compiled with the rules of REST bodies. */
export interface ToolInput<T> {
  json: Record<string, unknown>;
  check: ValidateFunction<T>;
}

function input<S extends TObject>(schema: S): ToolInput<Static<S>> {
  const json = { ...plain(schema), additionalProperties: false };
  return { json, check: compileBodySchema(json) as ValidateFunction<Static<S>> };
}

/** `{ task_id, attachment_id }`: the path id and the JSON body of POST /tasks/{id}/transcriptions. */
const Transcribe = Type.Object({ task_id: IdParams.properties.id, ...TranscribeAttachment.properties });

const id = IdParams.properties.id;

/** `expected_version` (CONTRACT §16.2) is the REST batch's `version`: the version the record must still have. */
const expected_version = ExpectedVersion;

/** Tool arguments built here are closed to unknown properties, as REST bodies are. */
const closed = { additionalProperties: false } as const;

/** `update_tasks`' items are the REST batch's updates, with `version` named `expected_version`. */
const { version: _version, id: batchId, ...batchUpdateFields } = TaskBatchUpdate.properties;
const TaskUpdateItem = Type.Object({ id: batchId, expected_version, ...batchUpdateFields }, closed);
const { tree_id: _treeId, ...taskInputFields } = TaskInput.properties;
const TaskInTree = Type.Object(taskInputFields, { additionalProperties: false });

/** The change a write made (CONTRACT §16.3): null when it changed nothing. */
const change_id = Type.Union([Type.String({ description: 'chg_…' }), Type.Null()], {
  description: 'the change this call wrote (null when it changed nothing); revert_change undoes it',
});

export const inputs = {
  ListTrees: input(TreeListQuery),
  ListTasks: input(TaskListQuery),
  TaskId: input(IdParams),
  Search: input(SearchQuery),
  CreateTask: input(TaskInput),
  AttachmentId: input(IdParams),
  Transcribe: input(Transcribe),
  TreeId: input(IdParams),
  /** SPEC's complete_task takes the version as optional (CONTRACT §16.2). */
  CompleteTask: input(Type.Object({ id, expected_version: Type.Optional(expected_version) })),
  ListProjects: input(ProjectListQuery),
  CreateProject: input(ProjectInput),
  UpdateProject: input(Type.Object({ id, expected_version, ...ProjectPatch.properties }, closed)),
  UpdateTask: input(Type.Object({ id, expected_version, ...TaskPatch.properties }, closed)),
  DeleteTask: input(Type.Object({ id, expected_version })),
  AssignTask: input(Type.Object({ id, expected_version, ...AssigneesInput.properties }, closed)),
  AddComment: input(Type.Object({ task_id: id, ...PostInput.properties })),
  ListComments: input(Type.Object({ task_id: id, ...CursorQuery.properties })),
  GetHistory: input(Type.Object({ tree_id: id, ...CursorQuery.properties })),
  CreateTasks: input(Type.Object({ tree_id: id, tasks: Type.Array(TaskInTree, { minItems: 1, maxItems: BATCH_MAX }) })),
  UpdateTasks: input(Type.Object({ updates: Type.Array(TaskUpdateItem, { minItems: 1, maxItems: BATCH_MAX }) })),
};

export const outputs = {
  TreePage: plain(TreeList),
  TaskPage: plain(TaskList),
  OneTask: plain(TaskOnly),
  AttachmentLink: plain(AttachmentLink, { Attachment }),
  OneJob: plain(OneJob, { SpeechJob }),
  TreeSnapshot: plain(TreeSnapshot),
  ProjectPage: plain(ProjectList),
  ProjectChange: plain(Type.Object({ project: Project, change_id })),
  TaskChange: plain(Type.Object({ task: Task, change_id })),
  Deleted: plain(Type.Object({ ok: Type.Literal(true), change_id })),
  CommentChange: plain(Type.Object({ comment: Comment, change_id })),
  CommentPage: plain(CommentList),
  HistoryPage: plain(HistoryList),
  TasksChange: plain(Type.Object({ tasks: Type.Array(Task, { description: 'in input order' }), change_id })),
};
