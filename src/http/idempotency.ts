import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Deps } from '../domain/deps.js';
import { DomainError, invalid } from '../domain/errors.js';
import { sha256 } from '../domain/crypto.js';
import { nowIso } from '../domain/ids.js';
import { IDEMPOTENCY_REPLAY_MS } from '../domain/idempotency-keys.js';
import { header, isSafe } from './pipeline.js';
import { IDEMPOTENCY_KEY_PATTERN } from './schemas/common.js';
import { methodsOf } from './route-hooks.js';
import type { IdempotencyState } from './access.js';

const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);
/** A first request still "running" after this long died with its process; its key may be used again. */
const ABANDONED_MS = 60_000;

function fingerprintOf(request: FastifyRequest): string {
  return sha256(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
}

/**
 * The key as stored: a tree-scoped credential's keys are kept apart from the account's others
 * (prefixed by a digest of its trees), so a replay never hands it an answer about a tree it
 * cannot see (CONTRACT §16.1). Unscoped credentials keep the key as sent.
 */
function storedKey(key: string, trees: ReadonlySet<string> | null): string {
  return trees === null ? key : `${sha256([...trees].sort().join(' ')).slice(0, 16)}/${key}`;
}

/** The routes that take an Idempotency-Key: writes whose config allows one (the default). */
export function takesIdempotencyKey(route: RouteOptions): boolean {
  return (route.config?.idempotency ?? 'allow') === 'allow' && methodsOf(route).some((method) => !isSafe(method));
}

/**
 * Runs after authorization and validation, before the work: claims the key or replays the stored
 * response. Concurrent duplicates race on the primary key, so only one of them ever does the work.
 * It is added only to the routes of takesIdempotencyKey.
 */
export function makeIdempotencyGuard(deps: Deps) {
  // A callback hook, since almost every request passes straight through; one that replays a
  // stored answer has sent it and must not continue (Fastify: do not call done after send).
  return function idempotencyGuard(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    const key = header(request, 'idempotency-key');
    const actor = request.actor;
    if (key === undefined || actor === null) return done();
    claimOrReplay(deps, request, reply, actor.user.id, key, actor.trees).then((replayed) => {
      if (!replayed) done();
    }, done);
  };
}

/** Claims the key for this request (false) or sends the stored answer (true). */
async function claimOrReplay(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  ownerId: string,
  sent: string,
  trees: ReadonlySet<string> | null,
): Promise<boolean> {
  if (!KEY.test(sent)) throw invalid('/idempotency-key', 'must be 8 to 128 characters of A-Z a-z 0-9 : _ . -');
  const key = storedKey(sent, trees);
  const fingerprint = fingerprintOf(request);
  for (let attempt = 0; attempt < 2; attempt++) {
    const claimed = await deps.db
      .insertInto('idempotency_keys')
      .values({
        owner_id: ownerId,
        key,
        fingerprint,
        state: 'running',
        status_code: null,
        response_body: null,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['owner_id', 'key']).doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 1) {
      request.idempotency = { ownerId, key };
      return false;
    }
    const stored = await deps.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (stored === undefined) continue;
    const age = Date.now() - Date.parse(stored.created_at);
    const stale = age > IDEMPOTENCY_REPLAY_MS || (stored.state === 'running' && age > ABANDONED_MS);
    if (stale) {
      await deps.db
        .deleteFrom('idempotency_keys')
        .where('owner_id', '=', ownerId)
        .where('key', '=', key)
        .where('created_at', '=', stored.created_at)
        .execute();
      continue;
    }
    if (stored.fingerprint !== fingerprint) {
      throw new DomainError(
        'idempotency_conflict',
        'This Idempotency-Key was used with a different method, path, query or body.',
      );
    }
    if (stored.state !== 'done') {
      throw new DomainError(
        'idempotency_in_progress',
        'The first request with this Idempotency-Key is still running; retry shortly.',
      );
    }
    reply
      .code(stored.status_code ?? 200)
      .header('Idempotent-Replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(stored.response_body ?? '');
    return true;
  }
  throw new DomainError('idempotency_in_progress', 'The Idempotency-Key is busy; retry shortly.');
}

/** Keeps a 200/201 answer for replay; any other outcome frees the key so the client may retry. */
export function makeIdempotencyRecorder(deps: Deps) {
  return function idempotencyRecorder(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload?: unknown) => void,
  ): void {
    const state = request.idempotency;
    if (state === null) return done(null, payload);
    request.idempotency = null;
    keepOrFree(deps, reply, payload, state).then(() => done(null, payload), done);
  };
}

async function keepOrFree(deps: Deps, reply: FastifyReply, payload: unknown, state: IdempotencyState): Promise<void> {
  const where = deps.db
    .updateTable('idempotency_keys')
    .where('owner_id', '=', state.ownerId)
    .where('key', '=', state.key);
  if (reply.statusCode === 200 || reply.statusCode === 201) {
    await where
      .set({ state: 'done', status_code: reply.statusCode, response_body: typeof payload === 'string' ? payload : '' })
      .execute();
  } else {
    await deps.db
      .deleteFrom('idempotency_keys')
      .where('owner_id', '=', state.ownerId)
      .where('key', '=', state.key)
      .execute();
  }
}
