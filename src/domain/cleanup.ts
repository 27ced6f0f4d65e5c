import type { Trx } from '../store/db.js';
import type { Deps } from './deps.js';
import type { DeleteCollector, Doomed } from './delete-collector.js';
import { collectAttachmentBlobs } from './files/attachments.js';

/** Everything outside the database that a delete of tasks, projects or a tree must clean up. */
const collectors: readonly DeleteCollector[] = [collectAttachmentBlobs];

/** Asks every collector inside the delete's transaction; the returned work runs after it commits. */
export async function collectDoomed(trx: Trx, deps: Deps, doomed: Doomed): Promise<() => Promise<void>> {
  const afterCommit = await Promise.all(collectors.map((collect) => collect(trx, deps, doomed)));
  return async () => {
    for (const work of afterCommit) await work();
  };
}
