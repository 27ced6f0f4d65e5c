import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { servedOpenApiDocument } from '../../scripts/served-openapi.js';
import { REGENERATE_COMMAND, WEB_API_TYPES_FILE, webApiTypes, webApiTypesPath } from '../../scripts/web-api-types.js';

describe("the web app's generated API types", () => {
  it('are what the served OpenAPI document generates now', async () => {
    const generated = await webApiTypes(await servedOpenApiDocument());
    const committed = readFileSync(webApiTypesPath, 'utf8');
    expect(
      committed,
      `${WEB_API_TYPES_FILE} is out of date with the API: run \`${REGENERATE_COMMAND}\` and commit the result`,
    ).toBe(generated);
  });
});
