/**
 * The hostile inputs of the fuzz, by category. A category names what the input tests, so a run
 * can tell its failures apart (NUL bytes and integer ranges are issue 13 point 4).
 */
export type Category = 'valid' | 'nul' | 'int-range' | 'oversized' | 'wrong-type' | 'malformed' | 'boundary';

export interface Variant<T> {
  category: Category;
  label: string;
  value: T;
}

const v = <T>(category: Category, label: string, value: T): Variant<T> => ({ category, label, value });

/** Path segments, already percent-encoded as they go on the wire. */
export const pathSegments: Variant<string>[] = [
  v('nul', '%00', '%00'),
  v('nul', 'id%00tail', 'tsk_abc%00def'),
  v('boundary', '160 chars', 'x'.repeat(160)),
  v('oversized', '161 chars', 'x'.repeat(161)),
  v('oversized', '8000 chars', 'y'.repeat(8000)),
  v('malformed', 'bad percent-encoding', '%E0%A4%A'),
  v('malformed', 'lone %', 'abc%'),
  v('malformed', 'encoded slash and dots', '..%2F..%2Fsecret'),
  v('malformed', 'quote and semicolon', "x'%3B--"),
  v('boundary', 'unicode', encodeURIComponent('tsk_ünïcødé_🌳')),
  v('boundary', 'encoded space', 'tsk%20x'),
  v('wrong-type', 'number', '12345678901234567890'),
  v('wrong-type', 'null', 'null'),
];

/** Query values, already percent-encoded. */
export const queryValues: Variant<string>[] = [
  v('nul', '%00', '%00'),
  v('nul', 'a%00b', 'a%00b'),
  v('oversized', '10000 chars', 'q'.repeat(10_000)),
  v('malformed', 'bad percent-encoding', '%E0%A4%A'),
  v('malformed', 'lone %', '%'),
  v('boundary', 'empty', ''),
  v('boundary', 'quotes and operators', encodeURIComponent('"a" OR 1=1 -- %_ \\')),
  v('wrong-type', 'not a number', 'abc'),
  v('int-range', '-1', '-1'),
  v('int-range', '0', '0'),
  v('int-range', '2^31', '2147483648'),
  v('int-range', '2^63', '9223372036854775808'),
  v('int-range', '1e309', '1e309'),
  v('wrong-type', 'fraction', '1.5'),
  v('wrong-type', 'object syntax', '%5Bobject%5D'),
];

/** Values for one JSON property, whatever its declared type. */
export const propertyValues: Variant<unknown>[] = [
  v('nul', 'NUL inside', 'left\u0000right'),
  v('nul', 'only NUL', '\u0000'),
  v('oversized', '100k string', 'z'.repeat(100_000)),
  v('boundary', 'empty string', ''),
  v('boundary', 'unicode and bidi', 'tree \u202e🌳 名前'),
  v('boundary', 'lone surrogate', '\ud800'),
  v('wrong-type', 'number', 42),
  v('wrong-type', 'boolean', true),
  v('wrong-type', 'null', null),
  v('wrong-type', 'object', { nested: 'x' }),
  v('wrong-type', 'array', ['a', 1]),
  v('int-range', '2^31', 2_147_483_648),
  v('int-range', '-2^31-1', -2_147_483_649),
  v('int-range', 'past 2^53', Number.MAX_SAFE_INTEGER + 2),
  v('int-range', '1e308', 1e308),
  v('int-range', 'negative', -1),
  v('wrong-type', 'fraction', 1.5),
  v('malformed', 'date-like garbage', '2026-13-45T25:61:61.1234567Z'),
];

/** Whole JSON bodies that break the framing rather than a field (raw text). */
export const wholeBodies: Variant<string | Buffer>[] = [
  v('malformed', 'truncated JSON', '{"name": "x'),
  v('malformed', 'not JSON', 'name=x&y=z'),
  v('wrong-type', 'array body', '[]'),
  v('wrong-type', 'null body', 'null'),
  v('wrong-type', 'string body', '"text"'),
  v('wrong-type', 'number body', '12'),
  v('malformed', 'deep nesting', '['.repeat(5000) + ']'.repeat(5000)),
  v('oversized', 'over 1 MiB', JSON.stringify({ name: 'n'.repeat(1_100_000) })),
  v('nul', 'NUL key', '{"\\u0000": 1}'),
  v('nul', 'raw NUL byte', '{"name": "a\u0000b"}'),
  v('malformed', '__proto__ key', '{"__proto__": {"admin": true}, "name": "x"}'),
  v('malformed', 'constructor key', '{"constructor": {"prototype": {"x": 1}}}'),
  v('malformed', 'duplicate keys', '{"name": "a", "name": "b"}'),
  v('malformed', 'invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
];

/** Header values fetch can send (it refuses NUL and line breaks). */
export const headerValues: Variant<string>[] = [
  v('oversized', '8000 chars', 'h'.repeat(8000)),
  v('malformed', 'control-free garbage', '"\'<>{}|\\^`'),
  v('boundary', 'empty', ''),
  v('malformed', 'latin1', 'caf\u00e9'),
];
