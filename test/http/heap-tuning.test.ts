import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Bytes that survived each young collection since the last full one (V8's `--trace-gc-nvp`
 * lines), in order. A full collection ends what a burst leaves behind without pretenuring: old
 * objects, dead but not yet collected, that keep young ones alive (and promote them) until it.
 */
function survivedSinceFullCollection(log: string): number[] {
  const collections = [...log.matchAll(/gc=(\w+) .*? new_space_survived=(\d+)/g)];
  const lastFull = collections.findLastIndex((m) => m[1] !== 's');
  return lastFull === -1 ? [] : collections.slice(lastFull + 1).map((m) => Number(m[2]));
}

async function read(url: string): Promise<void> {
  const answer = await fetch(`${url}/healthz`);
  await answer.arrayBuffer();
}

/** Ten clients, one request at a time each, as a steady load is. */
async function steadyLoad(url: string, requestsEach: number): Promise<void> {
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = 0; i < requestsEach; i++) await read(url);
    }),
  );
}

/**
 * src/heap-tuning.ts, applied by serve() (npm start and `tasktree serve`): after a burst of
 * concurrent requests, later requests' objects still die young. With V8's allocation-site
 * pretenuring on, such a burst left the process for good in a state where about 2 MB survived
 * every young collection (against about 0.2 MB), each request's objects dragged into the old
 * generation by older ones born there, and again after every full collection. Without
 * pretenuring, the burst's survivors can still drag later objects along until the next full
 * collection, which may take more than 40,000 requests to come (seen after #34–#37 grew the
 * heap): so the test cues one (SIGUSR2 takes a heap snapshot, which collects all garbage first)
 * and reads the steady state after it.
 */
describe('the service process after a burst of concurrent requests', () => {
  let dataDir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tasktree-heap-'));
    server = await spawnServer({ DATA_DIR: dataDir }, [
      '--trace-gc-nvp',
      '--heapsnapshot-signal=SIGUSR2',
      `--diagnostic-dir=${dataDir}`,
    ]);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the objects of later requests young', async () => {
    await Promise.all(Array.from({ length: 500 }, () => read(server.url)));
    await steadyLoad(server.url, 500);
    // A heap snapshot collects all garbage first: the full collection, on cue.
    const cue = server.log().length;
    server.process.kill('SIGUSR2');
    for (let waited = 0; !/gc=mc/.test(server.log().slice(cue)) && waited < 20_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await steadyLoad(server.url, 1_000);
    const steady = survivedSinceFullCollection(server.log()).slice(-20);
    expect(steady.length).toBeGreaterThanOrEqual(5);
    const mean = steady.reduce((sum, bytes) => sum + bytes, 0) / steady.length;
    expect(mean).toBeLessThan(1_000_000);
  }, 60_000);
});
