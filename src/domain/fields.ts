import { invalid } from './errors.js';

/*
 * Field bounds of SPEC "Resources and their fields" and CONTRACT, written once. The domain checks
 * them for every door (REST, MCP, CLI); the HTTP schemas, and through them the OpenAPI document and
 * the MCP tool schemas, are derived from these constants, so a bound cannot drift between copies.
 * Enums live beside their records: taskStatuses, treeStyles (schemas/records.ts), scopeNames (actor.ts),
 * planNames (plans.ts), languages (accounts/), TOKEN_LIFETIME_DAYS (agents/tokens.ts).
 */

/** Ids are opaque strings of at most 160 characters (CONTRACT §1). */
export const ID_MAX = 160;
export const TITLE_MAX = 500;
export const TEXT_MAX = 10_000;
export const NOTES_MAX = 50_000;
export const TREE_NAME_MAX = 120;
export const PROJECT_NAME_MAX = 160;
export const DESCRIPTION_MAX = 10_000;
export const QUERY_MAX = 200;
export const TOKEN_NAME_MAX = 80;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;
export const PROFILE_NAME_MAX = 120;
export const EMAIL_MAX = 254;
export const TIMEZONE_MAX = 64;
/** `deadline` as sent: a date, or a timestamp with up to 6 fractional digits and an offset. */
export const DEADLINE_MAX = 40;

/**
 * Integer columns are int4 on PostgreSQL (SQLite holds 64 bits), so every integer a client sends is
 * bounded to what both stores hold; a larger one is 400, never a 500 from the database.
 */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const POSITION_MIN = 0;
export const POSITION_MAX = INT32_MAX;

/** `#` and six hex digits, as a JSON Schema pattern and for the domain check. */
export const COLOR_PATTERN = '^#[a-fA-F0-9]{6}$';
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
