import { randomBytes } from 'node:crypto';

/** Kind prefixes of CONTRACT §1. */
export type IdKind =
  | 'usr'
  | 'tre'
  | 'prj'
  | 'tsk'
  | 'att'
  | 'spj'
  | 'pat'
  | 'cmt'
  | 'msg'
  | 'mbr'
  | 'agc'
  | 'his'
  | 'chg'
  | 'ses'
  | 'rst'
  | 'evf'
  | 'mcs'
  | 'oac'
  | 'oag';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Random bytes are drawn 4 KiB at a time: one call into the CSPRNG per 256 ids instead of one
 * per id (a tenth of a create's time went there). Each byte is used once.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let used = 0;

function sixteenRandomBytes(): Buffer {
  if (used + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

/** The time part of the last id made: ids made in one millisecond (a busy journal flush) share it. */
let lastTime = -1;
let lastTimeText = '';

function timeText(now: number): string {
  if (now !== lastTime) {
    let text = '';
    let t = now;
    for (let i = 0; i < 10; i++) {
      text = CROCKFORD[t % 32] + text;
      t = Math.floor(t / 32);
    }
    lastTime = now;
    lastTimeText = text;
  }
  return lastTimeText;
}

/** A prefixed ULID: 10 characters of millisecond time, then 16 random ones, so ids sort by creation time. */
export function newId(kind: IdKind, now = Date.now()): string {
  const bytes = sixteenRandomBytes();
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[bytes[i]! & 31];
  return `${kind}_${timeText(now)}${rand}`;
}

/** Timestamps are ISO 8601 UTC with milliseconds: they compare correctly as text on both databases. */
export function nowIso(): string {
  return new Date().toISOString();
}
