import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { runCases, type Finding, type Report } from './check.js';
import { buildFuzz, sampleCases } from './session.js';

const brief = (f: Finding) => `${f.problem} ${f.status ?? '-'} ${f.operation} ${f.label}: ${f.excerpt.slice(0, 120)}`;

/**
 * A bounded, deterministic sample of `npm run fuzz` (8 cases per operation, every category
 * represented), so CI keeps every answer inside CONTRACT §1 and free of 5xx.
 */
describe.each(databases)('fuzz sample (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let report: Report;

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_PER_MINUTE: '1000000' });
    const { cases } = await buildFuzz(t.url, t.app);
    report = await runCases(t.url, sampleCases(cases, 8));
  });
  afterAll(async () => t.stop());

  it('answers every malformed, oversized, wrong-type and framing input with a 4xx in the contract body', () => {
    expect(report.requests).toBeGreaterThan(300);
    expect(report.findings.map(brief)).toEqual([]);
  });
});
