import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { connectMcp } from '../helpers/mcp.js';

type Json = Record<string, any>;

/**
 * Where each argument of a tool comes from in its REST route (CONTRACT §17: schemas derived from
 * the REST ones): the operation, which of its path parameters an argument stands for, and the
 * arguments taken from elsewhere (`expected_version` is the batch's `version`, If-Match's value
 * in a body). Every other argument must be a query parameter or a body property of the route, with
 * the same schema; and every one of those must be an argument.
 */
interface Source {
  operation: string;
  path?: Record<string, string>;
  /** arguments that are a property of another operation's body: [operation, JSON pointer in its body schema] */
  elsewhere?: Record<string, [string, string]>;
  /** body properties of the route that the tool leaves out (set from another argument) */
  omitted?: string[];
  /** the route's body is an array of items at this argument's `items` (batches) */
  itemsAt?: { argument: string; body: string; renamed?: Record<string, string> };
}

const VERSION: [string, string] = ['batchTasks', '/properties/update/items/properties/version'];

const SOURCES: Record<string, Source> = {
  list_trees: { operation: 'listTrees' },
  list_tasks: { operation: 'listTasks' },
  get_task: { operation: 'getTask', path: { id: 'id' } },
  search: { operation: 'searchTasks' },
  create_task: { operation: 'createTask' },
  complete_task: {
    operation: 'updateTask',
    path: { id: 'id' },
    omitted: ['*'],
    elsewhere: { expected_version: VERSION },
  },
  get_attachment: { operation: 'getAttachment', path: { id: 'id' } },
  transcribe_audio: { operation: 'createTranscription', path: { task_id: 'id' } },
  get_tree: { operation: 'getTree', path: { id: 'id' } },
  list_projects: { operation: 'listProjects' },
  create_project: { operation: 'createProject' },
  update_project: { operation: 'updateProject', path: { id: 'id' }, elsewhere: { expected_version: VERSION } },
  update_task: { operation: 'updateTask', path: { id: 'id' }, elsewhere: { expected_version: VERSION } },
  delete_task: { operation: 'deleteTask', path: { id: 'id' }, elsewhere: { expected_version: VERSION } },
  assign_task: { operation: 'setTaskAssignees', path: { id: 'id' }, elsewhere: { expected_version: VERSION } },
  add_comment: { operation: 'createComment', path: { task_id: 'id' } },
  list_comments: { operation: 'listComments', path: { task_id: 'id' } },
  get_history: { operation: 'listTreeHistory', path: { tree_id: 'id' } },
  revert_change: { operation: 'revertChange', path: { change_id: 'id' } },
  create_tasks: {
    operation: 'batchTasks',
    elsewhere: { tree_id: ['createTask', '/properties/tree_id'] },
    itemsAt: { argument: 'tasks', body: 'create' },
  },
  update_tasks: {
    operation: 'batchTasks',
    itemsAt: { argument: 'updates', body: 'update', renamed: { expected_version: 'version' } },
  },
};

/** A schema as it is compared: references resolved, names and documentation ids left out. */
function resolved(document: Json, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolved(document, item));
  if (schema === null || typeof schema !== 'object') return schema;
  const object = schema as Json;
  if (typeof object.$ref === 'string') {
    const target = object.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: Json, key: string) => at[key], document);
    return resolved(document, target);
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    // A schema's own name, not a property named title.
    if (key === '$id' || (key === 'title' && typeof value === 'string')) continue;
    out[key] = resolved(document, value);
  }
  return out;
}

function pointer(schema: Json, path: string): Json {
  return path
    .split('/')
    .slice(1)
    .reduce((at: Json, key: string) => at[key], schema);
}

function operationOf(document: Json, id: string): Json | undefined {
  for (const item of Object.values<Json>(document.paths))
    for (const operation of Object.values<Json>(item)) if (operation?.operationId === id) return operation;
  return undefined;
}

/** What a tool's arguments should be, read from the REST route: argument name → schema. */
function expectedArguments(document: Json, source: Source): Record<string, unknown> {
  const operation = operationOf(document, source.operation);
  if (operation === undefined) throw new Error(`no operation ${source.operation} in the OpenAPI document`);
  const out: Record<string, unknown> = {};
  const parameters = (operation.parameters ?? []) as Json[];
  // The document moves a parameter's description from its schema to the parameter.
  const schemaOf = (parameter: Json | undefined) => ({
    ...(resolved(document, parameter?.schema) as Json),
    ...(parameter?.description !== undefined ? { description: parameter.description } : {}),
  });
  for (const [argument, name] of Object.entries(source.path ?? {}))
    out[argument] = schemaOf(parameters.find((p) => p.in === 'path' && p.name === name));
  for (const parameter of parameters.filter((p) => p.in === 'query')) out[parameter.name] = schemaOf(parameter);
  const body = resolved(document, operation.requestBody?.content?.['application/json']?.schema) as Json | undefined;
  if (source.itemsAt !== undefined) {
    const items = body!.properties[source.itemsAt.body].items as Json;
    const properties: Json = {};
    const renamed = Object.fromEntries(Object.entries(source.itemsAt.renamed ?? {}).map(([a, b]) => [b, a]));
    for (const [name, schema] of Object.entries<Json>(items.properties)) {
      if (source.elsewhere?.[name] !== undefined || (name === 'tree_id' && source.elsewhere?.tree_id)) continue;
      properties[renamed[name] ?? name] = schema;
    }
    out[source.itemsAt.argument] = {
      properties,
      required: (items.required as string[]).filter((r) => r in properties || renamed[r]).map((r) => renamed[r] ?? r),
    };
  } else if (body !== undefined && !source.omitted?.includes('*')) {
    for (const [name, schema] of Object.entries<Json>(body.properties ?? {}))
      if (!source.omitted?.includes(name)) out[name] = schema;
  }
  for (const [argument, [other, at]] of Object.entries(source.elsewhere ?? {})) {
    const operation = operationOf(document, other)!;
    out[argument] = pointer(resolved(document, operation.requestBody.content['application/json'].schema) as Json, at);
  }
  return out;
}

/**
 * CONTRACT §17: every tool's input schema is its REST route's. Read from the OpenAPI document the
 * service publishes, so a route that changes its schema, or a tool whose schema is written apart
 * from the route's, fails here.
 */
describe('MCP tool input schemas follow their REST routes', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let document: Json;
  let tools: Json[];

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    document = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as Json;
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const made = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const mcp = await connectMcp(t.url, made.value);
    try {
      tools = (await mcp.client.listTools()).tools as Json[];
    } finally {
      await mcp.close();
    }
  });
  afterAll(async () => t.stop());

  it('knows where every listed tool comes from', () => {
    expect(tools.map((tool) => tool.name).filter((name) => SOURCES[name] === undefined)).toEqual([]);
  });

  it('gives every tool the arguments of its route, with the same schemas', () => {
    for (const tool of tools) {
      const expected = expectedArguments(document, SOURCES[tool.name]!);
      const actual = resolved(document, tool.inputSchema.properties) as Json;
      expect(Object.keys(actual).sort(), tool.name).toEqual(Object.keys(expected).sort());
      for (const [name, schema] of Object.entries(expected)) {
        if (SOURCES[tool.name]!.itemsAt?.argument === name) {
          const { properties, required } = schema as Json;
          expect(actual[name].items.properties, `${tool.name}.${name}`).toEqual(properties);
          expect([...actual[name].items.required].sort(), `${tool.name}.${name}`).toEqual([...required].sort());
        } else {
          expect(actual[name], `${tool.name}.${name}`).toEqual(schema);
        }
      }
    }
  });
});
