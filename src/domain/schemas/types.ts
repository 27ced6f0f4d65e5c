import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/*
 * The TypeBox building blocks of the record schemas, in a leaf module (only TypeBox imported) so
 * the domain's record types and the HTTP layer's wire schemas can share them without the domain
 * importing Fastify or the HTTP layer.
 *
 * Responses are serialized by fast-json-stringify, which runs a full ajv validation of the value
 * for every branch of an `anyOf` on every response, and Type.Union of literals or `T | null` both
 * become `anyOf`. The two helpers below say the same with `enum` and a type list, which ajv, the
 * OpenAPI 3.1 document and the serializer (a typeof check) all read directly.
 */

/**
 * `T | null` as `type: [T's type, "null"]`. A copy of a named schema drops the name ($id, title):
 * it is another schema, and two under one name would make the document name the wrong one.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  if (typeof schema.type !== 'string') throw new Error('Nullable needs a schema with a single type');
  const { $id: _id, title: _title, ...rest } = schema;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [schema.type, 'null'] });
}

/** One of a fixed set of strings (or integers), as `enum`. */
export function OneOf<const V extends readonly (string | number)[]>(
  values: V,
  options: Record<string, unknown> = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({
    type: typeof values[0] === 'number' ? 'integer' : 'string',
    enum: [...values],
    ...options,
  });
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });
