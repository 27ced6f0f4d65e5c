import { Ajv, type Options } from 'ajv';
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

/**
 * Bodies are validated as sent: no type coercion, unknown properties refused (the schemas say
 * `additionalProperties: false`). Query strings, params and headers arrive as text, so they are coerced.
 * Request schemas are inline (no $ref), since these compilers do not see Fastify's shared schemas.
 */
export function makeValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv({ coerceTypes: false, useDefaults: false });
  const textAjv = makeAjv({ coerceTypes: true, useDefaults: true });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}
