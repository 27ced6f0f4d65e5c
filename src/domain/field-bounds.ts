/*
 * Field bounds of SPEC "Resources and their fields" and CONTRACT, written once. The domain checks
 * them for every door (REST, MCP, CLI); the HTTP schemas, and through them the OpenAPI document and
 * the MCP tool schemas, are derived from these constants, so a bound cannot drift between copies.
 * A leaf with no imports, so the browser app imports the same constants for its form fields
 * (web/src/api/bounds.ts). The checks that use them are in fields.ts.
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
/** Comments on tasks and messages on trees: a body of 1 to 10,000 characters (CONTRACT §10). */
export const POST_BODY_MAX = 10_000;

/**
 * Integer columns are int4 on PostgreSQL (SQLite holds 64 bits), so every integer a client sends is
 * bounded to what both stores hold; a larger one is 400, never a 500 from the database.
 */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
export const POSITION_MIN = 0;
export const POSITION_MAX = INT32_MAX;

/**
 * Names and titles (tree and project names, task titles, comment and message bodies) hold a
 * character that is not white space (CONTRACT §18): as a JSON Schema pattern (ECMAScript `\S`,
 * Unicode white space included), for the domain check and for the browser app's forms. Values are
 * stored as sent, never trimmed.
 */
export const NAME_PATTERN = '\\S';
export const NOT_BLANK_MESSAGE = 'must hold a character that is not white space';

/** `#` and six hex digits, as a JSON Schema pattern and for the domain check. */
export const COLOR_PATTERN = '^#[a-fA-F0-9]{6}$';
/** Items in one task batch, creates and updates together (CONTRACT §17). */
export const BATCH_MAX = 50;
