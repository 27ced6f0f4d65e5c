/**
 * The OpenAPI document the service serves, as a JSON value: boots the real app on a throwaway
 * SQLite DATA_DIR with a fixed configuration, asks it over HTTP (so every transform the server
 * applies is in), and removes everything again. Used by the scripts that write the document or
 * the web app's types, and by the test that checks those types are current.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createApp } from '../src/app.js';

export async function servedOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tasktree-openapi-'));
  const app = await createApp(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  try {
    const answer = await app.server.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    if (answer.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${answer.statusCode}`);
    return answer.json();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
