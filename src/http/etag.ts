import { createHash } from 'node:crypto';
import { sha256 } from '../domain/crypto.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TreeVersions } from '../domain/trees/trees.js';

type OnSendDone = (err: Error | null, payload?: unknown) => void;

/** A strong validator over the body and the actor, so two accounts never share a cached answer. */
export function etagFor(actorKey: string, body: string): string {
  return bodyTag(sha256(`${actorKey}\n${body}`));
}

/** A body's tag from its base64url SHA-256 (of the reader, a newline and the body). */
const bodyTag = (digest: string) => `"${digest.slice(0, 32)}"`;

/**
 * The tag etagFor gives a body that is written in pieces (the export), hashed as each piece
 * comes so the body is never held as one string.
 */
export function bodyTagger(request: FastifyRequest): { update(piece: string): void; digest(): string } {
  const hash = createHash('sha256').update(`${readerOf(request)}\n`);
  return {
    update: (piece) => void hash.update(piece),
    digest: () => bodyTag(hash.digest('base64url')),
  };
}

/** Whose answer it is: two accounts never share a cached answer. */
function readerOf(request: FastifyRequest): string {
  return request.actor?.user.id ?? request.sessionId ?? '';
}

/**
 * ETags made from a row's version instead of the body, so a conditional read that matches is
 * answered 304 before its body is built, serialized or hashed. A tag covers the reader, the row,
 * its version and the shape of the answer (the route's response schema: a release that changes
 * the representation changes every tag).
 */
export function versionTags(
  responseSchema: unknown,
): (request: FastifyRequest, rowId: string, version: number) => string {
  const shape = sha256(JSON.stringify(responseSchema)).slice(0, 16);
  return (request, rowId, version) =>
    `"v${sha256(`${shape}\n${readerOf(request)}\n${rowId}\n${version}`).slice(0, 32)}"`;
}

/**
 * ETags of a tree's snapshot made from its versions (see TreeVersions): the reader, the tree's own
 * version and the reader's access to it, and the id and version of each project and task in the
 * snapshot's order, so anything that changes the snapshot changes the tag. A tree write computes
 * the same tag inside its transaction (If-Match, and the tag its answer carries) without building
 * the snapshot's body.
 */
export function snapshotTags(responseSchema: unknown): (request: FastifyRequest, versions: TreeVersions) => string {
  const shape = sha256(JSON.stringify(responseSchema)).slice(0, 16);
  return (request, { tree, projects, tasks }) => {
    const hash = createHash('sha256').update(
      `${shape}\n${readerOf(request)}\n${tree.id}\n${tree.version}\n${tree.access}\n`,
    );
    for (const project of projects) hash.update(`p${project.id} ${project.version}\n`);
    for (const task of tasks) hash.update(`t${task.id} ${task.version}\n`);
    return `"s${hash.digest('base64url').slice(0, 32)}"`;
  };
}

/**
 * Sets the ETag of a versioned read and, when the caller's If-None-Match already holds it, sends
 * the 304 and returns true (the route then returns the reply). Call only after the read has been
 * authorized: the version comes from the row the reader was allowed to see.
 */
export function answeredUnchanged(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('ETag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch === undefined || !matches(ifNoneMatch, etag)) return false;
  void reply.code(304).send();
  return true;
}

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * onSend for API reads. It runs only for answers the route produced, so authentication and
 * authorization have already succeeded before a 304 can be chosen. A callback hook: it never waits.
 */
export function applyReadCaching(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: OnSendDone,
): void {
  done(null, cachedOrFresh(request, reply, payload));
}

function cachedOrFresh(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  // Lower-case names, as Fastify keeps them (see applyLimit in pipeline.ts).
  reply.header('vary', 'Authorization, Cookie');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    reply.header('cache-control', 'no-store');
    // A write that appended history names its change (CONTRACT §16.3).
    const change = request.actor?.change;
    if (change?.written === true) reply.header('change-id', change.id);
    return payload;
  }
  reply.header('cache-control', 'private, no-cache');
  if (reply.statusCode !== 200 || typeof payload !== 'string' || (request.actor === null && request.sessionId === null))
    return payload;
  // A versioned read set its tag (and chose 304 itself) before the body was built.
  if (reply.hasHeader('etag')) return payload;
  const etag = etagFor(readerOf(request), payload);
  reply.header('etag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) {
    reply.code(304);
    reply.removeHeader('Content-Type');
    reply.removeHeader('Content-Length');
    return '';
  }
  return payload;
}
