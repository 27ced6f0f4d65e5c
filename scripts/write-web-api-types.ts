/** Writes the web app's API types (web/src/api/openapi.d.ts) from the document the service serves. */
import { writeFileSync } from 'node:fs';
import { servedOpenApiDocument } from './served-openapi.js';
import { webApiTypes, webApiTypesPath } from './web-api-types.js';

writeFileSync(webApiTypesPath, await webApiTypes(await servedOpenApiDocument()));
