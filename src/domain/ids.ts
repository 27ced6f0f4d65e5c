import { randomBytes } from 'node:crypto';

/** Kind prefixes of CONTRACT §1. */
export type IdKind = 'usr' | 'tre' | 'prj' | 'tsk' | 'att' | 'spj' | 'pat' | 'cmt' | 'msg' | 'mbr' | 'agc' | 'his' | 'ses' | 'rst' | 'mcs' | 'oac' | 'oag';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A prefixed ULID: 10 characters of millisecond time, then 16 random ones, so ids sort by creation time. */
export function newId(kind: IdKind, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[bytes[i]! & 31];
  return `${kind}_${time}${rand}`;
}

/** Timestamps are ISO 8601 UTC with milliseconds: they compare correctly as text on both databases. */
export function nowIso(): string {
  return new Date().toISOString();
}
