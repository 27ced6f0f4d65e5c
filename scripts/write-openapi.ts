/**
 * Writes the OpenAPI document the service serves to a file, for linters that read files
 * (`npm run lint:openapi` runs Spectral on it).
 */
import { writeFileSync } from 'node:fs';
import { servedOpenApiDocument } from './served-openapi.js';

const target = process.argv[2] ?? 'openapi.json';
writeFileSync(target, `${JSON.stringify(await servedOpenApiDocument(), null, 2)}\n`);
