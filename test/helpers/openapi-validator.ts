import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const formatsExport = addFormatsModule as unknown as { default?: (ajv: Ajv2020) => Ajv2020 } & ((
  ajv: Ajv2020,
) => Ajv2020);
const addFormats: (ajv: Ajv2020) => Ajv2020 = formatsExport.default ?? formatsExport;

/** One answer as it came off the wire. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Headers the pipeline sets; when an answer carries one, the document must declare it there. */
const TRACKED_HEADERS = [
  'etag',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'idempotent-replayed',
  'www-authenticate',
];

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
}

/**
 * Checks answers against an OpenAPI 3.1 document: the operation exists, the status is declared
 * (an undeclared one is a mismatch), the content type is one declared for that status, a JSON
 * body matches its schema ($refs resolved through the document), and the tracked headers an
 * answer carries, and the required ones, are declared. Records which operations and statuses
 * were seen, so a session can show it covered the document.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new WeakMap<object, ValidateFunction>();
  private readonly routes: Route[];
  readonly seen = new Map<string, Set<number>>();

  constructor(private readonly document: any) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    // Schemas refer to '#/components/...': the document's components become one schema to resolve against.
    this.ajv.addSchema({ $id: 'openapi.json', components: document.components }, undefined, undefined, false);
    this.routes = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The mismatches of one answer; empty when it conforms. */
  check(exchange: Exchange): string[] {
    const where = `${exchange.method} ${exchange.path} -> ${exchange.status}`;
    const route = this.routes.find((candidate) => candidate.pattern.test(exchange.path));
    if (route === undefined) return [`${where}: no documented path`];
    const operation = this.document.paths[route.template][exchange.method.toLowerCase()];
    if (operation === undefined) return [`${where}: ${exchange.method} is not documented on ${route.template}`];
    const key = `${exchange.method.toUpperCase()} ${route.template}`;
    if (!this.seen.has(key)) this.seen.set(key, new Set());
    this.seen.get(key)!.add(exchange.status);
    const response = operation.responses[String(exchange.status)];
    if (response === undefined)
      return [`${where}: status not declared (declared: ${Object.keys(operation.responses).join(', ')})`];
    return [...this.checkHeaders(where, response, exchange), ...this.checkBody(where, response, exchange)];
  }

  private checkHeaders(where: string, response: any, exchange: Exchange): string[] {
    const problems: string[] = [];
    const declared = new Map<string, any>(
      Object.entries(response.headers ?? {}).map(([name, header]) => [name.toLowerCase(), this.resolve(header)]),
    );
    for (const name of TRACKED_HEADERS) {
      if (exchange.headers[name] !== undefined && !declared.has(name))
        problems.push(`${where}: header ${name} sent but not declared`);
    }
    for (const [name, header] of declared) {
      if (header.required === true && exchange.headers[name] === undefined)
        problems.push(`${where}: required header ${name} missing`);
    }
    return problems;
  }

  private checkBody(where: string, response: any, exchange: Exchange): string[] {
    const content: Record<string, any> | undefined = response.content;
    if (content === undefined) return exchange.body.length === 0 ? [] : [`${where}: a body where none is declared`];
    const type = String(exchange.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const media = content[type] ?? content['*/*'];
    if (media === undefined)
      return [`${where}: content type "${type}" not declared (declared: ${Object.keys(content).join(', ')})`];
    if (type !== 'application/json' || media.schema === undefined) return [];
    let body: unknown;
    try {
      body = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return [`${where}: declared JSON, body does not parse`];
    }
    const validate = this.validatorOf(media.schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: body${error.instancePath} ${error.message ?? 'is invalid'}`,
    );
  }

  private validatorOf(schema: object): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile({ $id: `response-${Math.random().toString(36).slice(2)}`, ...rebase(schema) });
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  private resolve(node: any): any {
    if (typeof node?.$ref !== 'string') return node;
    return (node.$ref as string)
      .slice(2)
      .split('/')
      .reduce((at: any, part) => at[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
  }
}

/** '#/components/...' refs of an inline schema point into the document schema added above. */
function rebase(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi.json${value}` : rebase(value),
    ]),
  );
}
