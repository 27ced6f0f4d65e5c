import { randomBytes } from 'node:crypto';
import { headerValues, pathSegments, propertyValues, queryValues, wholeBodies, type Category } from './values.js';

/** One request of the fuzz, ready for the wire. */
export interface FuzzCase {
  operation: string;
  category: Category;
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Real ids the fuzz mutates around, so valid requests reach the domain and the stores. */
export interface Seeds {
  tree: string;
  project: string;
  task: string;
  attachment: string;
  job: string;
  token: string;
  user: string;
}

type Schema = Record<string, any>;
interface Operation {
  method: string;
  template: string;
  parameters: { in: string; name: string; required?: boolean; schema: Schema }[];
  body: { contentType: string; schema: Schema } | null;
}

/** Which seed an `{id}` names, by the collection before it. */
const ID_OWNERS: [RegExp, keyof Seeds][] = [
  [/\/trees\/\{id\}/, 'tree'],
  [/\/projects\/\{id\}/, 'project'],
  [/\/tasks\/\{id\}/, 'task'],
  [/\/attachments\/\{id\}/, 'attachment'],
  [/\/speech\/jobs\/\{id\}/, 'job'],
  [/\/tokens\/\{id\}/, 'token'],
];
const FIELD_OWNERS: Record<string, keyof Seeds> = {
  tree_id: 'tree',
  project_id: 'project',
  parent_id: 'project',
  task_id: 'task',
  attachment_id: 'attachment',
  assignee_id: 'user',
};

function resolve(doc: Schema, schema: Schema): Schema {
  let current = schema;
  while (typeof current.$ref === 'string')
    current = current.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Schema, key: string) => node[key], doc);
  return current;
}

/** The operations of the OpenAPI document, with path-level and $ref'd parts resolved. */
export function operationsOf(doc: Schema): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<Schema>(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (op === undefined) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p: Schema) => resolve(doc, p))
        .map((p: Schema) => ({ ...p, schema: resolve(doc, p.schema ?? {}) })) as Operation['parameters'];
      const content = op.requestBody?.content as Record<string, { schema: Schema }> | undefined;
      const contentType =
        content === undefined
          ? undefined
          : Object.keys(content).includes('application/json')
            ? 'application/json'
            : Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase(),
        template,
        parameters,
        body: contentType === undefined ? null : { contentType, schema: resolve(doc, content![contentType]!.schema) },
      });
    }
  }
  return operations;
}

/** A small value the schema accepts (defaults, enums, formats, ids from the seeds). */
function sample(doc: Schema, raw: Schema, name: string, seeds: Seeds): unknown {
  const schema = resolve(doc, raw);
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return sample(doc, union.find((s: Schema) => s.type !== 'null') ?? union[0], name, seeds);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (FIELD_OWNERS[name] !== undefined) return seeds[FIELD_OWNERS[name]];
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sample(doc, schema.properties?.[key] ?? {}, key, seeds);
      return out;
    }
    default:
      if (schema.format === 'email') return `fuzz-${randomBytes(4).toString('hex')}@example.test`;
      if (schema.format === 'date-time') return new Date().toISOString();
      if (schema.format === 'date') return '2026-12-31';
      if (name === 'color') return '#6b8e23';
      return 'fuzz value';
  }
}

function fillPath(op: Operation, seeds: Seeds, segment?: string): string {
  const owner = ID_OWNERS.find(([pattern]) => pattern.test(op.template))?.[1];
  return op.template.replace(/\{[^}]+\}/g, () => segment ?? (owner !== undefined ? seeds[owner] : 'unknown_id'));
}

function query(params: Record<string, string>): string {
  const text = Object.entries(params)
    .map(([k, val]) => `${k}=${val}`)
    .join('&');
  return text === '' ? '' : `?${text}`;
}

const MULTIPART_BODIES: { category: Category; label: string; contentType: string; body: string }[] = [
  { category: 'malformed', label: 'no boundary', contentType: 'multipart/form-data', body: '--x\r\n\r\n' },
  {
    category: 'malformed',
    label: 'no closing boundary',
    contentType: 'multipart/form-data; boundary=B',
    body: '--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
  },
  {
    category: 'malformed',
    label: 'broken part header',
    contentType: 'multipart/form-data; boundary=B',
    body: '--B\r\nnot a header\r\n\r\nabc\r\n--B--\r\n',
  },
  {
    category: 'nul',
    label: 'NUL in filename',
    contentType: 'multipart/form-data; boundary=B',
    body: '--B\r\nContent-Disposition: form-data; name="file"; filename="a\u0000b.txt"\r\n\r\nabc\r\n--B--\r\n',
  },
  {
    category: 'nul',
    label: 'NUL in filename field',
    contentType: 'multipart/form-data; boundary=B',
    body: '--B\r\nContent-Disposition: form-data; name="filename"\r\n\r\nx\u0000y\r\n--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc\r\n--B--\r\n',
  },
  {
    category: 'wrong-type',
    label: 'no file part',
    contentType: 'multipart/form-data; boundary=B',
    body: '--B\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--B--\r\n',
  },
  {
    category: 'oversized',
    label: 'huge field name',
    contentType: 'multipart/form-data; boundary=B',
    body: `--B\r\nContent-Disposition: form-data; name="${'n'.repeat(9000)}"\r\n\r\nx\r\n--B--\r\n`,
  },
];

/**
 * Every case for one operation: the valid request, then each path parameter, query parameter,
 * header and body property replaced by each hostile value, then whole broken bodies. DELETE
 * never gets a real id (the seeds must survive the run).
 */
export function casesFor(doc: Schema, op: Operation, seeds: Seeds, auth: Record<string, string>): FuzzCase[] {
  const operation = `${op.method} ${op.template}`;
  const cases: FuzzCase[] = [];
  const validQuery: Record<string, string> = {};
  for (const p of op.parameters.filter((x) => x.in === 'query' && x.required))
    validQuery[p.name] = encodeURIComponent(String(sample(doc, p.schema, p.name, seeds)));
  const validBody =
    op.body?.contentType === 'application/json'
      ? (sample(doc, op.body.schema, '', seeds) as Record<string, unknown>)
      : undefined;
  const json = { ...auth, 'content-type': 'application/json' };
  const base = (category: Category, label: string, over: Partial<FuzzCase> = {}): FuzzCase => ({
    operation,
    category,
    label,
    method: op.method,
    path: fillPath(op, seeds) + query(validQuery),
    headers: validBody !== undefined ? json : auth,
    ...(validBody !== undefined ? { body: JSON.stringify(validBody) } : {}),
    ...over,
  });

  if (op.method !== 'DELETE') cases.push(base('valid', 'valid request'));
  if (op.template.includes('{')) {
    for (const s of pathSegments)
      cases.push(base(s.category, `path ${s.label}`, { path: fillPath(op, seeds, s.value) + query(validQuery) }));
  }
  for (const p of op.parameters.filter((x) => x.in === 'query')) {
    for (const q of queryValues)
      cases.push(
        base(q.category, `query ${p.name}=${q.label}`, {
          path:
            fillPath(op, seeds, op.method === 'DELETE' ? 'unknown_id' : undefined) +
            query({ ...validQuery, [p.name]: q.value }),
        }),
      );
  }
  cases.push(
    base('nul', 'unknown query parameter with NUL', {
      path:
        fillPath(op, seeds, op.method === 'DELETE' ? 'unknown_id' : undefined) +
        query({ ...validQuery, 'fuzz%00': '%00' }),
    }),
  );
  for (const p of op.parameters.filter((x) => x.in === 'header' && x.name !== 'x-csrf-token')) {
    for (const h of headerValues)
      cases.push(
        base(h.category, `header ${p.name}: ${h.label}`, {
          path: fillPath(op, seeds, op.method === 'DELETE' ? 'unknown_id' : undefined),
          headers: { ...(validBody !== undefined ? json : auth), [p.name]: h.value },
        }),
      );
  }
  if (validBody !== undefined) {
    const properties = Object.keys(resolve(doc, op.body!.schema).properties ?? {});
    for (const name of [...properties, 'bogus_property']) {
      for (const value of propertyValues)
        cases.push(
          base(value.category, `body ${name}: ${value.label}`, {
            body: JSON.stringify({ ...validBody, [name]: value.value }),
          }),
        );
    }
    for (const body of wholeBodies) cases.push(base(body.category, `body ${body.label}`, { body: body.value }));
    cases.push(base('wrong-type', 'JSON sent as text/plain', { headers: { ...auth, 'content-type': 'text/plain' } }));
    cases.push(
      base('wrong-type', 'JSON sent as multipart', {
        headers: { ...auth, 'content-type': 'multipart/form-data; boundary=B' },
      }),
    );
  }
  if (
    op.method === 'POST' &&
    (op.body?.contentType === 'multipart/form-data' || op.template.endsWith('/transcriptions'))
  ) {
    for (const m of MULTIPART_BODIES)
      cases.push(
        base(m.category, `multipart ${m.label}`, { headers: { ...auth, 'content-type': m.contentType }, body: m.body }),
      );
  }
  return cases;
}
