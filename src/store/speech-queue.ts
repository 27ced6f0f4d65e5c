import type { Db } from './db.js';

/** Jobs waiting and in hand: one grouped count over the (status, run_at) index, for the metrics. */
export async function speechQueueDepth(db: Db): Promise<{ queued: number; running: number }> {
  const rows = await db
    .selectFrom('speech_jobs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy('status')
    .execute();
  const depth = { queued: 0, running: 0 };
  for (const row of rows) depth[row.status as 'queued' | 'running'] = Number(row.n);
  return depth;
}
