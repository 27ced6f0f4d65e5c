import { invalid } from './errors.js';
import { COLOR_PATTERN, ID_MAX, POSITION_MAX, POSITION_MIN } from './field-bounds.js';

/** The field checks every door shares; the bounds themselves are in field-bounds.ts, re-exported here. */
export * from './field-bounds.js';

const COLOR = new RegExp(COLOR_PATTERN);

/** PostgreSQL text cannot hold U+0000 (it answers an error, a 500), so no door may store one. */
export function hasNul(value: string): boolean {
  return value.includes('\u0000');
}

export function checkNoNul(path: string, value: string): void {
  if (hasNul(value)) throw invalid(path, 'must not contain the NUL character (U+0000)');
}

/** Field rules shared by projects and tasks (SPEC "Resources and their fields"). */
export function checkColor(path: string, value: string): void {
  if (!COLOR.test(value)) throw invalid(path, 'must look like #a1b2c3');
}

/** "After the last sibling", kept inside the column: past POSITION_MAX, siblings share the last place. */
export function positionAfter(last: number | string | null): number {
  return last === null ? POSITION_MIN : Math.min(Number(last) + 1, POSITION_MAX);
}

export function checkPosition(path: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < POSITION_MIN || value > POSITION_MAX) {
    throw invalid(path, `must be an integer from ${POSITION_MIN} to ${POSITION_MAX}`);
  }
}

/** Whether an id could name a stored record: a lookup of any other answers not_found without asking the store. */
export function isStorableId(value: string): boolean {
  return value.length >= 1 && value.length <= ID_MAX && !hasNul(value);
}

/** Ids are opaque strings of at most 160 characters (CONTRACT §1), never holding NUL. */
export function checkId(path: string, value: string): void {
  if (value.length < 1 || value.length > ID_MAX) throw invalid(path, `must be an id of 1 to ${ID_MAX} characters`);
  checkNoNul(path, value);
}
