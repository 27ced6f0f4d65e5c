import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { retentionJobs, runRetention, type RetentionJob } from '../../src/retention.js';

describe.each(databases)('retention jobs (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  it('runs every job on a fresh store', async () => {
    const outcomes = await runRetention(t.app.deps);
    expect(outcomes).toEqual(retentionJobs.map((job) => ({ job: job.name, removed: 0 })));
  });

  it('reports a failing job and still runs the ones after it, in order', async () => {
    const ran: string[] = [];
    const job = (name: string, work: () => Promise<number>): RetentionJob => ({
      name,
      run: async () => (ran.push(name), work()),
    });
    const outcomes = await runRetention(t.app.deps, [
      job('first', async () => 3),
      job('broken', async () => Promise.reject(new Error('disk on fire'))),
      job('last', async () => 1),
    ]);
    expect(ran).toEqual(['first', 'broken', 'last']);
    expect(outcomes).toEqual([
      { job: 'first', removed: 3 },
      { job: 'broken', error: 'disk on fire' },
      { job: 'last', removed: 1 },
    ]);
  });
});
