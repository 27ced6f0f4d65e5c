import { sha256 } from '../domain/crypto.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

type OnSendDone = (err: Error | null, payload?: unknown) => void;

/** A strong validator over the body and the actor, so two accounts never share a cached answer. */
export function etagFor(actorKey: string, body: string): string {
  return `"${sha256(`${actorKey}\n${body}`).slice(0, 32)}"`;
}

function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/**
 * onSend for API reads. It runs only for answers the route produced, so authentication and
 * authorization have already succeeded before a 304 can be chosen. A callback hook: it never waits.
 */
export function applyReadCaching(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: OnSendDone): void {
  done(null, cachedOrFresh(request, reply, payload));
}

function cachedOrFresh(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  reply.header('Vary', 'Authorization, Cookie');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    reply.header('Cache-Control', 'no-store');
    return payload;
  }
  reply.header('Cache-Control', 'private, no-cache');
  if (reply.statusCode !== 200 || typeof payload !== 'string' || (request.actor === null && request.sessionId === null)) return payload;
  const etag = etagFor(request.actor?.user.id ?? request.sessionId ?? '', payload);
  reply.header('ETag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matches(ifNoneMatch, etag)) {
    reply.code(304);
    reply.removeHeader('Content-Type');
    reply.removeHeader('Content-Length');
    return '';
  }
  return payload;
}
