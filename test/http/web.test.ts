import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { ensureWebBuilt } from '../helpers/web-build.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe.each(databases)('browser app serving (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let webDir: string;
  beforeAll(async () => {
    webDir = await ensureWebBuilt();
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('serves index.html at / with a strict CSP, no framing and no caching', async () => {
    const answer = await new Client(t.url).get('/', { headers: HTML });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('<div id="app">');
    const csp = answer.headers.get('content-security-policy') ?? '';
    for (const rule of [
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
    ])
      expect(csp).toContain(rule);
    expect(csp).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
  });

  it('ships no inline script or style, which the CSP would block', async () => {
    const html = readFileSync(join(webDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).not.toMatch(/<style/);
  });

  it('serves hashed assets as immutable for 30 days', async () => {
    const manifest = JSON.parse(readFileSync(join(webDir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean }
    >;
    const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
    const answer = await new Client(t.url).get(`/${entry.file}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/javascript/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=2592000, immutable');
  });

  it('answers client-side routes with index.html for a browser', async () => {
    for (const path of [
      '/trees',
      '/trees/tre_123',
      '/reset?token=abc',
      '/verify?token=abc',
      '/invite?token=abc&id=mbr_123',
      '/agents',
    ]) {
      const answer = await new Client(t.url).get(path, { headers: HTML });
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).toContain('<div id="app">');
      expect(answer.headers.get('content-security-policy'), path).toContain("script-src 'self'");
    }
  });

  it('keeps the JSON 404 for the API, service paths, non-HTML clients and writes', async () => {
    const client = new Client(t.url);
    for (const path of ['/api/v1/nothing-here', '/mcp/x', '/docs/nothing', '/.well-known/nothing', '/healthz/x']) {
      const answer = await client.get(path, { headers: HTML });
      expect(answer.status, path).toBe(404);
      expect(answer.body.error.code, path).toBe('not_found');
    }
    const json = await client.get('/trees', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('not_found');
    const post = await client.post('/trees/tre_1', { headers: HTML, body: {} });
    expect(post.status).toBe(404);
  });
});
