import type { Deps } from '../deps.js';
import { parseBlobKey } from './blob-store.js';
import { SWEEP_GRACE_MS } from './temp-files.js';

/**
 * Removes what interrupted uploads leave: abandoned temp files, and stored objects without a
 * row (a crash between writing the object and committing the row, or a removal after a delete
 * that failed). Objects younger than the grace period are kept: their upload may be committing.
 * Runs at every start and then hourly, on every instance; removing twice is harmless.
 */
export async function sweepBlobs(deps: Pick<Deps, 'db' | 'blobs' | 'tempFiles'>, now = Date.now()): Promise<number> {
  let removed = await deps.tempFiles.sweep(now);
  for await (const page of deps.blobs.list()) {
    const old = page
      .filter((blob) => now - blob.modifiedMs >= SWEEP_GRACE_MS)
      .map((blob) => ({ key: blob.key, ids: parseBlobKey(blob.key) }))
      .filter((blob) => blob.ids !== null);
    if (old.length === 0) continue;
    // One query per page of objects, not per object.
    const kept = new Set(
      (
        await deps.db
          .selectFrom('attachments')
          .select('blob_key')
          .where(
            'id',
            'in',
            old.map((blob) => blob.ids!.attachmentId),
          )
          .execute()
      ).map((row) => row.blob_key),
    );
    for (const blob of old) {
      if (kept.has(blob.key)) continue;
      await deps.blobs.remove(blob.key);
      removed++;
    }
  }
  return removed;
}
