import type { Write } from './write.js';
import { DomainError } from './errors.js';
import { lockVersion, type VersionedTable } from '../store/locks.js';

/** What every conditional write compares at least: the record's version (CONTRACT §16.2). */
export interface Versioned {
  version: number;
}

/**
 * A write's precondition: whether the record, as it is now, may be written. The HTTP door builds
 * it from If-Match and the ETag a read of the record gives the same user; an MCP tool's
 * `expected_version` (CONTRACT §17) is `(current) => current.version === expected`. A use case
 * that takes one calls it once, inside the write's transaction, after the record's existence and
 * the actor's role are checked and before any domain conflict or plan limit, with the record's
 * row locked until commit: of two writers that checked the same version only one can write.
 */
export type Precondition<C extends Versioned = Versioned> = (current: C) => boolean;

/** 412: the precondition names a version the record no longer has; `details` tell the one it has. */
export function preconditionFailed(currentVersion: number): DomainError {
  return new DomainError(
    'precondition_failed',
    'The record has changed since the version this write names; read it again and retry.',
    [{ current_version: currentVersion }],
  );
}

/** @throws precondition_failed unless there is no precondition or it holds for `current` */
export function requirePrecondition<C extends Versioned>(precondition: Precondition<C> | undefined, current: C): void {
  if (precondition !== undefined && !precondition(current)) throw preconditionFailed(current.version);
}

/**
 * The record a write goes on with, its row locked until commit and the precondition (if any)
 * checked on it: `found` when nobody has written the row since it was read, else `reread()` (which
 * checks existence and role again). An update locks even without a precondition (`lock`): what it
 * changes, and whether it changes anything at all (a no-op raises no version), is decided on the
 * row as it is, not as a concurrent writer left it a moment ago. A delete without a precondition
 * needs neither: `found` as it is.
 * @throws precondition_failed, and what `reread` throws (not_found, forbidden)
 */
export async function checkPrecondition<F>(
  w: Write,
  precondition: Precondition | undefined,
  table: VersionedTable,
  found: F,
  rowOf: (found: F) => { id: string; version: number },
  reread: () => Promise<F>,
  lock: 'always' | 'when-conditional' = 'when-conditional',
): Promise<F> {
  if (precondition === undefined && lock === 'when-conditional') return found;
  const row = rowOf(found);
  const locked = await lockVersion(w.trx, table, row.id);
  const current = locked === undefined || locked === row.version ? found : await reread();
  requirePrecondition(precondition, rowOf(current));
  return current;
}

/** The precondition of a write that names the version it read (MCP `expected_version`, a batch's `version`). */
export function versionIs(expected: number): Precondition {
  return (current) => current.version === expected;
}
