/**
 * Conditional writes (CONTRACT §16.2): every edit of a task, project or tree carries `If-Match`
 * with the ETag the app last got for that record, from its GET or from the previous write's
 * answer. The tags live here, in one place, beside the version each belongs to, so a tag is only
 * ever sent for the version the person is looking at.
 */
import { ApiError, describeError, isChangedMeanwhile, type Tagged } from './client';

export type RecordKind = 'tree' | 'project' | 'task';

/** A record as the person sees it: a write sends the tag of exactly this version. */
export interface Shown {
  kind: RecordKind;
  id: string;
  /** Undefined from a server without versions: any tag of the record then goes. */
  version: number | undefined;
  /** Reads the record again (its GET remembers the tag) and gives its current version. */
  read(): Promise<number | undefined>;
}

const known = new Map<string, { etag: string; version: number | undefined }>();
const keyOf = (kind: RecordKind, id: string) => `${kind}:${id}`;

/** Keeps a record's ETag from a read or a write answer; an answer without one changes nothing. */
export function remember(kind: RecordKind, id: string, etag: string | null, version: number | undefined): void {
  if (etag !== null) known.set(keyOf(kind, id), { etag, version });
}

/** The ETag last got for a record, whatever its version: what a revalidation sends as If-None-Match. */
export function knownTag(kind: RecordKind, id: string): string | undefined {
  return known.get(keyOf(kind, id))?.etag;
}

export function forget(kind: RecordKind, id: string): void {
  known.delete(keyOf(kind, id));
}

/** The tag of the version shown, if the app has it. */
function tagOf(record: Shown): string | undefined {
  const entry = known.get(keyOf(record.kind, record.id));
  if (entry === undefined) return undefined;
  const sameVersion = record.version === undefined || entry.version === undefined || entry.version === record.version;
  return sameVersion ? entry.etag : undefined;
}

/** The server's 412, said before asking it: the record read again is newer than the one shown. */
function changedMeanwhile(): ApiError {
  return new ApiError(412, 'precondition_failed', describeError(412, 'precondition_failed', null));
}

/**
 * Sends a write of `record` with If-Match and remembers the answer's tag. A record whose tag the
 * app lacks (a task seen only in its tree's snapshot) is read first; when that read finds another
 * version than the one shown, the write is not sent and the 412 is thrown here.
 *
 * A tree's tag is its snapshot's, which any change inside the tree renews (a task saved a moment
 * ago included): on a 412 whose record still has the version shown, its own fields are as the
 * person saw them, so the write goes once more with the fresh tag.
 */
export async function writeIfUnchanged<T>(
  record: Shown,
  send: (ifMatch: string) => Promise<Tagged<T>>,
  versionOf: (answer: T) => number | undefined,
): Promise<T> {
  let tag = tagOf(record);
  if (tag === undefined) {
    await record.read();
    tag = tagOf(record);
    if (tag === undefined) throw changedMeanwhile();
  }
  let answer: Tagged<T>;
  try {
    answer = await send(tag);
  } catch (error) {
    if (!isChangedMeanwhile(error) || record.kind !== 'tree' || record.version === undefined) throw error;
    if ((await record.read()) !== record.version) throw error;
    const fresh = tagOf(record);
    if (fresh === undefined || fresh === tag) throw error;
    answer = await send(fresh);
  }
  remember(record.kind, record.id, answer.etag, versionOf(answer.body));
  return answer.body;
}

/** A conditional write's outcome: the record as saved, or, when it changed meanwhile (412), as it is now. */
export type SaveOutcome<R> = { saved: R; current?: undefined } | { saved?: undefined; current: R };

/** Runs a conditional write; on 412 reads the record as it is now instead of failing, for the conflict dialog. */
export async function saveOrCurrent<R>(write: () => Promise<R>, read: () => Promise<R>): Promise<SaveOutcome<R>> {
  try {
    return { saved: await write() };
  } catch (error) {
    if (!isChangedMeanwhile(error)) throw error;
    return { current: await read() };
  }
}
