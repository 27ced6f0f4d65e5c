import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Precondition, Versioned } from '../domain/precondition.js';

/**
 * One element of an If-Match list (RFC 9110 §8.8.3, §13.1.1): optional white space, an
 * entity-tag (`W/` marks a weak one; the opaque tag is quoted, its characters %x21, %x23-7E or
 * obs-text, so a comma may sit inside it), optional white space, then a comma or the end. An empty
 * element (`a, , b`) is allowed, as in every list header.
 */
const ELEMENT = /[ \t]*(?:(W\/)?("[\x21\x23-\x7E\x80-\xFF]*"))?[ \t]*(,|$)/y;

/**
 * The strong entity-tags an If-Match value names; `*` for any; null when the value is neither `*`
 * nor a list of entity-tags (it then matches nothing). Weak tags are left out: If-Match compares
 * strongly, so a weak tag never matches.
 */
export function parseIfMatch(value: string): '*' | string[] | null {
  if (value.trim() === '*') return '*';
  const strong: string[] = [];
  let tags = 0;
  for (let at = 0; ;) {
    ELEMENT.lastIndex = at;
    const element = ELEMENT.exec(value);
    if (element === null) return null;
    if (element[2] !== undefined) {
      tags += 1;
      if (element[1] === undefined) strong.push(element[2]);
    }
    if (element[3] === '') break;
    at = ELEMENT.lastIndex;
  }
  return tags === 0 ? null : strong;
}

/**
 * The precondition a write's If-Match asks for (CONTRACT §16.2), or undefined when it asks none
 * (no header; `*`, which the record's existence satisfies, and the write checks that first).
 * `tagOf` is the ETag a read of the record gives this user, the one the write answers carry.
 * When no tag matches, the answer (412 precondition_failed) carries the record's current ETag.
 */
export function ifMatch<C extends Versioned>(
  request: FastifyRequest,
  reply: FastifyReply,
  tagOf: (current: C) => string,
): Precondition<C> | undefined {
  const value = request.headers['if-match'];
  if (value === undefined) return undefined;
  const tags = parseIfMatch(value);
  if (tags === '*') return undefined;
  return (current) => {
    const tag = tagOf(current);
    if (tags !== null && tags.includes(tag)) return true;
    reply.header('etag', tag);
    return false;
  };
}
