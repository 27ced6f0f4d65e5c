/**
 * Writes the OpenAPI document the service serves to a file, for linters that read files
 * (`npm run lint:openapi` runs Spectral on it). Boots the real app on a throwaway SQLite
 * DATA_DIR, asks it over HTTP, and removes everything again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';

const target = process.argv[2] ?? 'openapi.json';
const dataDir = mkdtempSync(join(tmpdir(), 'tasktree-openapi-'));
const app = await createApp(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
try {
  const answer = await app.server.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  if (answer.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${answer.statusCode}`);
  writeFileSync(target, `${JSON.stringify(answer.json(), null, 2)}\n`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
