import Fastify from 'fastify';
import type { TSchema } from '@sinclair/typebox';

/** The bytes Fastify's serializer for a response schema writes for `value`, as a route would answer it. */
export async function serializedBySchema(schema: TSchema, value: unknown): Promise<string> {
  const reference = Fastify();
  reference.get('/', { schema: { response: { 200: schema } } }, async () => value);
  const body = (await reference.inject('/')).body;
  await reference.close();
  return body;
}
