import { Ajv, _, type KeywordCxt, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { INT32_MAX, INT32_MIN } from '../domain/fields.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const formatsExport = addFormatsModule as unknown as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv);
const addFormats: (ajv: Ajv) => Ajv = formatsExport.default ?? formatsExport;

/** The keyword `requestRules` adds to every string of a request schema. */
const NO_NUL = 'x-no-nul';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, removeAdditional: false, ...options });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: NO_NUL,
    type: 'string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema === true) cxt.fail(_`${cxt.data}.includes("\\u0000")`);
    },
    error: { message: 'must not contain the NUL character (U+0000)' },
  });
  return ajv;
}

function hasType(schema: Record<string, unknown>, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/**
 * Rules every request value obeys, whatever its route's schema says, so a new schema cannot forget
 * them: no string holds NUL (PostgreSQL text cannot store it), and no integer exceeds int4, what an
 * integer column holds on PostgreSQL. Applied to a copy; the shared schemas (also the OpenAPI
 * document and the response serializer's) stay as written.
 */
export function requestRules(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(requestRules);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // A named schema ($id) may serve many routes; one ajv instance would refuse to compile its id twice.
    if (key === '$id') continue;
    out[key] = key === 'enum' || key === 'const' || key === 'default' ? value : requestRules(value);
  }
  if (hasType(out, 'string')) out[NO_NUL] = true;
  if (hasType(out, 'integer')) {
    if (typeof out.maximum !== 'number' || out.maximum > INT32_MAX) out.maximum = INT32_MAX;
    if (typeof out.minimum !== 'number' || out.minimum < INT32_MIN) out.minimum = INT32_MIN;
  }
  return out;
}

const BODY_OPTIONS: Options = { coerceTypes: false, useDefaults: false };
let sharedBodyAjv: Ajv | null = null;

/**
 * A schema compiled with the rules of request bodies, for input that arrives as JSON outside
 * Fastify's routes (MCP tool arguments), so it is refused exactly as a REST body would be,
 * NUL and int4 rules included.
 */
export function compileBodySchema(schema: object): ValidateFunction {
  sharedBodyAjv ??= makeAjv(BODY_OPTIONS);
  return sharedBodyAjv.compile(requestRules(schema) as object);
}

/**
 * Bodies are validated as sent: no type coercion, unknown properties refused (the schemas say
 * `additionalProperties: false`). Query strings, params and headers arrive as text, so they are coerced.
 * Request schemas are inline (no $ref), since these compilers do not see Fastify's shared schemas.
 */
export function makeValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv(BODY_OPTIONS);
  const textAjv = makeAjv({ coerceTypes: true, useDefaults: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(requestRules(schema) as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
