import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from '../helpers/server-process.js';

/** Bytes that survived each young collection (V8's `--trace-gc-nvp` lines), in order. */
function survivedPerScavenge(log: string): number[] {
  return [...log.matchAll(/gc=s .*? new_space_survived=(\d+)/g)].map((m) => Number(m[1]));
}

async function read(url: string): Promise<void> {
  const answer = await fetch(`${url}/healthz`);
  await answer.arrayBuffer();
}

/**
 * src/heap-tuning.ts, applied by serve() (npm start and `tasktree serve`): after a burst of
 * concurrent requests, later requests' objects still die young. With V8's allocation-site
 * pretenuring on, such a burst left the process for good in a state where about 2 MB survived
 * every young collection (against about 0.2 MB), each request's objects dragged into the old
 * generation by older ones born there.
 */
describe('the service process after a burst of concurrent requests', () => {
  let dataDir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tasktree-heap-'));
    server = await spawnServer({ DATA_DIR: dataDir }, ['--trace-gc-nvp']);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the objects of later requests young', async () => {
    await Promise.all(Array.from({ length: 500 }, () => read(server.url)));
    const before = survivedPerScavenge(server.log()).length;
    // Ten clients, one request at a time each, as a steady load is.
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = 0; i < 2_000; i++) await read(server.url);
      }),
    );
    const steady = survivedPerScavenge(server.log()).slice(before).slice(-20);
    expect(steady.length).toBeGreaterThanOrEqual(5);
    const mean = steady.reduce((sum, bytes) => sum + bytes, 0) / steady.length;
    expect(mean).toBeLessThan(1_000_000);
  }, 60_000);
});
