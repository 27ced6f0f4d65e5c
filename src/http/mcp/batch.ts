import type { Admission } from '../pipeline.js';
import type { McpAnswer } from './sdk-transport.js';
import { operationOf, outlineOf, rpcErrorOf } from './messages.js';

/**
 * Protocol revisions are dates, so they order as strings. 2025-06-18 removed JSON-RPC batches
 * and no later revision (2025-11-25, 2026-07-28) brought them back.
 */
const FIRST_WITHOUT_BATCHES = '2025-06-18';

export const BATCH_REFUSED = `Invalid Request: protocol revision ${FIRST_WITHOUT_BATCHES} and later have no JSON-RPC batches; send each message in a request of its own.`;

/** The most messages the SDK's transport takes in one batch (its MAX_BATCH_SIZE, which it does not export). */
const MAX_BATCH = 100;

/** An empty array is no batch (JSON-RPC 2.0); the SDK's transport would answer it 202 as if it held only notifications. */
const EMPTY_BATCH: McpAnswer = {
  status: 400,
  body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } },
};

/** Whether a session of this revision may send JSON-RPC batches (CONTRACT §19). */
export function allowsBatches(revision: string): boolean {
  return revision < FIRST_WITHOUT_BATCHES;
}

/** The revision an initialize inside a batch asks for: no session is open yet, so the message decides. */
export function initializeRevision(messages: unknown[]): string | undefined {
  for (const message of messages) {
    const outline = outlineOf(message);
    if (outline.method === 'initialize')
      return typeof outline.params.protocolVersion === 'string' ? outline.params.protocolVersion : '';
  }
  return undefined;
}

/** A journal record of CONTRACT §8: the message's operation and the status it would have had alone. */
export interface BatchRecord {
  operation: string;
  status: number;
  /**
   * The message's place in the batch, when it is a request: the SDK's transport numbers a batch's
   * messages by their place (its handlers see that number as the request id), so a tool call's
   * change is found by it (tools.ts `callActor`).
   */
  index?: number;
}

export interface BatchOutcome {
  answer: McpAnswer;
  records: BatchRecord[];
}

/** A message that gets an answer: a method and an id (a notification has no id, a response no method). */
function isRequest(message: unknown): message is { id: string | number | null } {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { method?: unknown }).method === 'string' &&
    'id' in message
  );
}

/** A batch refused as a whole ran nothing: one record, `batch`, with the status of the refusal. */
function whole(answer: McpAnswer): BatchOutcome {
  return { answer, records: [{ operation: 'batch', status: answer.status }] };
}

/**
 * A batch of a revision that allows them (2025-03-26 and older), served as if each message came
 * alone (CONTRACT §19): each counts one unit against the rate limit and gets its own journal
 * record. The pipeline counted the first message with the request; `admit` counts the rest.
 *
 * Past the budget, the messages that fit run and each one after them is refused as it would
 * have been alone: a request gets the rate_limited JSON-RPC error under its own id, a
 * notification or response is dropped, and each is journaled as 429. Refusing the whole batch
 * with 429 instead would need the limiter to take many units at once, all or none (a second
 * kind of count in both limiters), or would count units that never ran.
 *
 * A batch refused whole (empty, over 100 messages, a malformed message, a second initialize, a
 * bad Accept) runs nothing and is counted as the one request it was.
 */
export async function serveBatch(
  messages: unknown[],
  admit: (more: number) => Promise<Admission>,
  serve: (run: unknown[]) => Promise<McpAnswer>,
  requestId: string,
): Promise<BatchOutcome> {
  if (messages.length === 0) return whole(EMPTY_BATCH);
  if (messages.length > MAX_BATCH) return whole(await serve(messages));
  const { allowed, refusal } = await admit(messages.length - 1);
  const run = messages.slice(0, 1 + allowed);
  const answer = await serve(run);
  if (answer.status >= 400) return whole(answer);
  const refused = messages.slice(run.length);
  const error = refusal === null ? null : rpcErrorOf(refusal, requestId);
  const refusals =
    error === null ? [] : refused.filter(isRequest).map((message) => ({ jsonrpc: '2.0', id: message.id, error }));
  const answers = [...((answer.body as unknown[] | undefined) ?? []), ...refusals];
  const records = [
    ...run.map((message, index) => ({
      operation: operationOf(outlineOf(message)),
      status: isRequest(message) ? answer.status : 202,
      ...(isRequest(message) ? { index } : {}),
    })),
    ...refused.map((message) => ({ operation: operationOf(outlineOf(message)), status: 429 })),
  ];
  return { answer: answers.length === 0 ? { status: 202 } : { status: 200, body: answers }, records };
}
