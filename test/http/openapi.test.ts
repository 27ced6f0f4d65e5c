import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp } from '../helpers/app.js';

describe('OpenAPI document', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t.stop());

  it('is a valid OpenAPI 3.1.1 document, version 0.8.3', async () => {
    const document: any = await (await fetch(`${t.url}/api/v1/openapi.json`)).json();
    expect(document.openapi).toBe('3.1.1');
    expect(document.info.version).toBe('0.8.3');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every SPEC endpoint with responses, errors and security', async () => {
    const document: any = await (await fetch(`${t.url}/api/v1/openapi.json`)).json();
    const expected: [string, string][] = [
      ['get', '/api/v1/trees'], ['post', '/api/v1/trees'], ['get', '/api/v1/trees/{id}'], ['patch', '/api/v1/trees/{id}'], ['delete', '/api/v1/trees/{id}'],
      ['get', '/api/v1/trees/{id}/export'],
      ['get', '/api/v1/projects'], ['post', '/api/v1/projects'], ['get', '/api/v1/projects/{id}'], ['patch', '/api/v1/projects/{id}'], ['delete', '/api/v1/projects/{id}'],
      ['get', '/api/v1/tasks'], ['post', '/api/v1/tasks'], ['get', '/api/v1/tasks/{id}'], ['patch', '/api/v1/tasks/{id}'], ['delete', '/api/v1/tasks/{id}'],
      ['get', '/api/v1/search'], ['get', '/api/v1/tokens'], ['post', '/api/v1/tokens'], ['delete', '/api/v1/tokens/{id}'],
      ['get', '/api/v1/auth/me'], ['patch', '/api/v1/auth/profile'], ['post', '/api/v1/auth/register'], ['post', '/api/v1/auth/login'],
      ['post', '/api/v1/auth/logout'], ['post', '/api/v1/auth/reset/request'], ['post', '/api/v1/auth/reset/complete'],
      ['post', '/api/v1/tasks/{id}/attachments'], ['get', '/api/v1/tasks/{id}/attachments'], ['get', '/api/v1/attachments/{id}'],
      ['delete', '/api/v1/attachments/{id}'], ['get', '/api/v1/attachments/{id}/content'], ['get', '/api/v1/speech/status'],
      ['post', '/api/v1/tasks/{id}/transcriptions'], ['get', '/api/v1/tasks/{id}/transcriptions'], ['get', '/api/v1/speech/jobs/{id}'],
      ['get', '/api/v1/agent-calls'],
    ];
    for (const [method, path] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((s) => s.startsWith('2')), `${method} ${path}`).toBe(true);
      expect(statuses, `${method} ${path}`).toContain('400');
    }
    expect(document.paths['/api/v1/tasks'].post.requestBody.content['application/json'].schema.properties.title).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(document.paths['/api/v1/tasks'].post.security).toBeDefined();
    const upload = document.paths['/api/v1/tasks/{id}/attachments'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    const transcription = document.paths['/api/v1/tasks/{id}/transcriptions'].post.requestBody.content;
    expect(Object.keys(transcription).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(transcription['application/json'].schema.required).toEqual(['attachment_id']);
    expect(Object.keys(document.components.securitySchemes).length).toBeGreaterThan(0);
    expect(document.components.schemas.Error ?? document.components.schemas['def-0']).toBeDefined();
  });

  it('renders the documentation page', async () => {
    const page = await fetch(`${t.url}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });
});
