import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { startTestApp } from '../helpers/app.js';

/** Issue 13 point 9: the served document passes Redocly's recommended rules (redocly.yaml), warnings included. */
describe('OpenAPI document lint', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t.stop());

  it('has no Redocly problems beyond the reasoned ignore list', async () => {
    const source = await (await fetch(`${t.url}/api/v1/openapi.json`)).text();
    const config = await loadConfig({ configPath: resolve('redocly.yaml') });
    // The name .redocly.lint-ignore.yaml gives the served document.
    const problems = await lintFromString({ source, absoluteRef: resolve('openapi.json'), config });
    const open = problems.filter((problem) => problem.ignored !== true);
    expect(open.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });
});
