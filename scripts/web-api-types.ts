/**
 * The web app's API types, generated from the served OpenAPI document by openapi-typescript, so
 * the browser app reads the records the server actually answers (web/src/api/types.ts names them).
 */
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** The generated file, as the repository names it and as a path from anywhere. */
export const WEB_API_TYPES_FILE = 'web/src/api/openapi.d.ts';
export const webApiTypesPath = fileURLToPath(new URL(`../${WEB_API_TYPES_FILE}`, import.meta.url));
export const REGENERATE_COMMAND = 'npm run generate:api-types';

const header = `/*
 * Generated from the served OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`${REGENERATE_COMMAND}\` (scripts/write-web-api-types.ts) after an API change.
 */
`;

export async function webApiTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true });
  return header + astToString(ast);
}
