import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { IdParams } from '../schemas/common.js';
import { TaskInput, TaskList, TaskListQuery, TaskOnly, TreeList, TreeListQuery } from '../schemas/data.js';
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

export const inputs = {
  ListTrees: input(TreeListQuery),
  ListTasks: input(TaskListQuery),
  TaskId: input(IdParams),
  Search: input(SearchQuery),
  CreateTask: input(TaskInput),
  AttachmentId: input(IdParams),
  Transcribe: input(Transcribe),
};

/** A write's task and the change it made (CONTRACT §16.3): null when it changed nothing. */
const TaskChanged = Type.Object({
  ...TaskOnly.properties,
  change_id: Type.Union([Type.String(), Type.Null()], {
    description: 'The change (chg_…) this call wrote, as the history entries name it; null when nothing changed',
  }),
});

export const outputs = {
  TreePage: plain(TreeList),
  TaskPage: plain(TaskList),
  OneTask: plain(TaskOnly),
  TaskChanged: plain(TaskChanged),
  AttachmentLink: plain(AttachmentLink, { Attachment }),
  OneJob: plain(OneJob, { SpeechJob }),
};
