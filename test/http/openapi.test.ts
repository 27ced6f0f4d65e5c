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
    // The project's licence (LICENSE, package.json), by its SPDX identifier as OpenAPI 3.1 allows.
    expect(document.info.license).toEqual({ name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' });
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every SPEC endpoint with responses, errors and security', async () => {
    const document: any = await (await fetch(`${t.url}/api/v1/openapi.json`)).json();
    const expected: [string, string][] = [
      ['get', '/api/v1/trees'],
      ['post', '/api/v1/trees'],
      ['get', '/api/v1/trees/{id}'],
      ['patch', '/api/v1/trees/{id}'],
      ['delete', '/api/v1/trees/{id}'],
      ['get', '/api/v1/trees/{id}/export'],
      ['get', '/api/v1/projects'],
      ['post', '/api/v1/projects'],
      ['get', '/api/v1/projects/{id}'],
      ['patch', '/api/v1/projects/{id}'],
      ['delete', '/api/v1/projects/{id}'],
      ['get', '/api/v1/tasks'],
      ['post', '/api/v1/tasks'],
      ['get', '/api/v1/tasks/{id}'],
      ['patch', '/api/v1/tasks/{id}'],
      ['delete', '/api/v1/tasks/{id}'],
      ['get', '/api/v1/search'],
      ['get', '/api/v1/tokens'],
      ['post', '/api/v1/tokens'],
      ['delete', '/api/v1/tokens/{id}'],
      ['get', '/api/v1/auth/me'],
      ['patch', '/api/v1/auth/profile'],
      ['post', '/api/v1/auth/register'],
      ['post', '/api/v1/auth/login'],
      ['post', '/api/v1/auth/logout'],
      ['post', '/api/v1/auth/reset/request'],
      ['post', '/api/v1/auth/reset/complete'],
      ['post', '/api/v1/tasks/{id}/attachments'],
      ['get', '/api/v1/tasks/{id}/attachments'],
      ['get', '/api/v1/attachments/{id}'],
      ['delete', '/api/v1/attachments/{id}'],
      ['get', '/api/v1/attachments/{id}/content'],
      ['get', '/api/v1/speech/status'],
      ['post', '/api/v1/tasks/{id}/transcriptions'],
      ['get', '/api/v1/tasks/{id}/transcriptions'],
      ['get', '/api/v1/speech/jobs/{id}'],
      ['get', '/api/v1/agent-calls'],
    ];
    for (const [method, path] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((s) => s.startsWith('2')),
        `${method} ${path}`,
      ).toBe(true);
      expect(statuses, `${method} ${path}`).toContain('400');
    }
    expect(document.paths['/api/v1/tasks'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TaskInput',
    });
    expect(document.components.schemas.TaskInput.properties.title).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(document.components.schemas.TaskInput.properties.position).toMatchObject({
      minimum: 0,
      maximum: 2147483647,
    });
    expect(document.paths['/api/v1/tasks'].post.security).toBeDefined();
    const upload =
      document.paths['/api/v1/tasks/{id}/attachments'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    const transcription = document.paths['/api/v1/tasks/{id}/transcriptions'].post.requestBody.content;
    expect(Object.keys(transcription).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(transcription['application/json'].schema.required).toEqual(['attachment_id']);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerToken', 'oauth', 'sessionCookie']);
    // OAuth tokens carry scopes the document can name: a write needs `write`, a read `read`.
    expect(document.paths['/api/v1/tasks'].post.security).toContainEqual({ oauth: ['write'] });
    expect(document.paths['/api/v1/tasks'].get.security).toContainEqual({ oauth: ['read'] });
    expect(document.components.securitySchemes.oauth.flows.authorizationCode.tokenUrl).toMatch(/\/oauth\/token$/);
  });

  it('names every operation and schema and declares what the pipeline answers', async () => {
    const document: any = await (await fetch(`${t.url}/api/v1/openapi.json`)).json();
    const schemas = document.components.schemas;
    for (const name of [
      'Task',
      'Tree',
      'Project',
      'User',
      'Token',
      'TokenCreated',
      'Error',
      'Attachment',
      'SpeechJob',
      'TaskInput',
      'TreeSnapshot',
      'TreeExport',
    ]) {
      expect(schemas[name], name).toMatchObject({ type: 'object' });
    }
    expect(Object.keys(schemas).filter((name) => name.startsWith('def-'))).toEqual([]);
    expect(
      document.paths['/api/v1/tasks/{id}'].get.responses['200'].content['application/json'].schema.properties.task,
    ).toEqual({ $ref: '#/components/schemas/Task' });
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        const where = `${method} ${path}`;
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(operation.operationId), where).toBe(false);
        ids.add(operation.operationId);
        expect(operation.description, where).toBeTruthy();
        const statuses = Object.keys(operation.responses);
        const api = path.startsWith('/api/v1/');
        if (api && method !== 'get') expect(statuses, where).toContain('415');
        if (api && method !== 'get' && operation.requestBody?.content['application/json'] !== undefined) {
          expect(operation.responses['415'].content['application/json'].schema).toEqual({
            $ref: '#/components/schemas/Error',
          });
        }
        if (api && method === 'get' && path !== '/api/v1/attachments/{id}/content') {
          expect(statuses, where).toContain('304');
          expect(operation.responses['304'].content, where).toBeUndefined();
          expect(Object.keys(operation.responses['200'].headers), where).toEqual(
            expect.arrayContaining(['ETag', 'RateLimit-Limit']),
          );
        }
        if (api)
          expect(operation.responses['429'].headers['Retry-After'], where).toEqual({
            $ref: '#/components/headers/Retry-After',
          });
        expect(JSON.stringify(operation).match(/CONTRACT|SPEC\b|\.md\b/)?.[0], where).toBeUndefined();
      }
    }
    expect(document.paths['/healthz'].get.security).toEqual([]);
    expect(document.paths['/readyz'].get.security).toEqual([]);
    expect(document.paths['/api/v1/tasks'].post.responses['201'].headers['Idempotent-Replayed']).toEqual({
      $ref: '#/components/headers/Idempotent-Replayed',
    });
    expect(document.paths['/api/v1/tokens'].post.responses['201'].headers['Idempotent-Replayed']).toBeUndefined();
    const content = document.paths['/api/v1/attachments/{id}/content'].get.responses;
    expect(content['200'].content).toEqual({ '*/*': { schema: { type: 'string', format: 'binary' } } });
    expect(Object.keys(content['206'].content)).toEqual(['*/*']);
    // Descriptions speak for themselves: no pointer to files a user of the API cannot read.
    expect(JSON.stringify(document).match(/.{40}(CONTRACT|SPEC\b|ARCHITECTURE|\.md\b).{20}/)?.[0]).toBeUndefined();
  });

  it('renders the documentation page', async () => {
    const page = await fetch(`${t.url}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });
});
