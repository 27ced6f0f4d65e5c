import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const formatsExport = addFormatsModule as unknown as { default?: (ajv: Ajv) => Ajv } & ((ajv: Ajv) => Ajv);
const addFormats: (ajv: Ajv) => Ajv = formatsExport.default ?? formatsExport;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, removeAdditional: false, ...options });
  addFormats(ajv);
  return ajv;
}

const BODY_OPTIONS: Options = { coerceTypes: false, useDefaults: false };
let sharedBodyAjv: Ajv | null = null;

/**
 * A schema compiled with the rules of request bodies, for input that arrives as JSON outside
 * Fastify's routes (MCP tool arguments), so it is refused exactly as a REST body would be.
 */
export function compileBodySchema(schema: object): ValidateFunction {
  sharedBodyAjv ??= makeAjv(BODY_OPTIONS);
  return sharedBodyAjv.compile(schema);
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
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
