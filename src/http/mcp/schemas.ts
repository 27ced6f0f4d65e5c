import { z } from 'zod';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { taskStatuses, treeStyles } from '../../domain/records.js';

/**
 * A zod schema whose JSON Schema form is computed once. Every MCP request gets a fresh server
 * (the SDK serves one exchange per server), and the SDK would otherwise convert each tool's
 * schemas to JSON Schema again on every tools/call and tools/list.
 */
function memoized<T extends z.ZodType>(schema: T): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const standard = schema['~standard'] as unknown as StandardSchemaWithJSON<z.input<T>, z.output<T>>['~standard'];
  const cache = new Map<string, Record<string, unknown>>();
  type Options = Parameters<typeof standard.jsonSchema.input>[0];
  const once = (io: 'input' | 'output') => (options: Options) => {
    const key = `${io} ${options.target}`;
    let json = cache.get(key);
    if (json === undefined) {
      json = standard.jsonSchema[io](options);
      cache.set(key, json);
    }
    return json;
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'zod',
      validate: (value: unknown) => standard.validate(value),
      jsonSchema: { input: once('input'), output: once('output') },
      ...(standard.types !== undefined ? { types: standard.types } : {}),
    },
  };
}

const Id = z.string().min(1).max(160);
const Status = z.enum(taskStatuses);
const paging = {
  limit: z.number().int().min(1).max(200).optional().describe('page size, 1 to 200 (default 100)'),
  cursor: z.string().min(1).max(1024).optional().describe('next_cursor of the previous page'),
  updated_since: z.string().max(64).optional().describe('ISO 8601 date-time with a zone; inclusive'),
};

const Task = z.object({
  id: z.string(), tree_id: z.string(), project_id: z.string().nullable(), title: z.string(), text: z.string(), notes: z.string(),
  status: Status, deadline: z.string().nullable(), color: z.string(), position: z.number().int(), completed_at: z.string().nullable(),
  created_by: z.string(), assignee_ids: z.array(z.string()), created_at: z.string(), updated_at: z.string(),
});
const Tree = z.object({
  id: z.string(), name: z.string(), style: z.enum(treeStyles), owner_id: z.string(), access: z.enum(['owner', 'editor', 'viewer']),
  created_at: z.string(), updated_at: z.string(),
});

const Attachment = z.object({
  id: z.string(), task_id: z.string(), filename: z.string(), content_type: z.string(), size: z.number().int(), sha256: z.string(),
  metadata_removed: z.array(z.string()), created_at: z.string(), updated_at: z.string(),
});
const SpeechJob = z.object({
  id: z.string(), task_id: z.string(), attachment_id: z.string(), status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  transcript: z.string().nullable(), error: z.string().nullable(), created_at: z.string(), updated_at: z.string(), finished_at: z.string().nullable(),
});

/** Tool inputs mirror the REST query and body fields; outputs are the REST response shapes. */
export const schemas = {
  TreePage: memoized(z.object({ items: z.array(Tree), next_cursor: z.string().nullable() })),
  TaskPage: memoized(z.object({ items: z.array(Task), next_cursor: z.string().nullable() })),
  OneTask: memoized(z.object({ task: Task })),
  ListTrees: memoized(z.object(paging)),
  ListTasks: memoized(z.object({ ...paging, tree_id: Id.optional(), project_id: Id.optional(), status: Status.optional() })),
  TaskId: memoized(z.object({ id: Id })),
  AttachmentId: memoized(z.object({ id: Id.describe('attachment id (att_…)') })),
  AttachmentLink: memoized(z.object({ attachment: Attachment, content_url: z.string(), content_url_expires_at: z.string() })),
  Transcribe: memoized(z.object({ task_id: Id, attachment_id: Id.describe('an audio attachment of the task') })),
  OneJob: memoized(z.object({ job: SpeechJob })),
  Search: memoized(z.object({ q: z.string().min(1).max(200), tree_id: Id.optional(), ...paging })),
  CreateTask: memoized(z.object({
    tree_id: Id, title: z.string().min(1).max(500), project_id: Id.nullable().optional(), text: z.string().max(10_000).optional(),
    notes: z.string().max(50_000).optional(), status: Status.optional(), deadline: z.string().max(40).nullable().optional(),
    color: z.string().regex(/^#[a-fA-F0-9]{6}$/).optional(), position: z.number().int().min(0).optional(),
  })),
};
