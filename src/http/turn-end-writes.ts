import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import { answerAtTurnEnd } from '../turn-end.js';

type Continue = (err: Error | null, payload: unknown) => void;

/**
 * Answers made in one turn of the event loop leave together at its end (../turn-end.ts),
 * instead of one by one as each is made.
 *
 * Writing an answer wakes the client that waits for it. A client on the same host (the reverse
 * proxy in front of the service, an agent's runtime, a load generator) that has gone to sleep
 * between answers costs the writer a wake-up on another CPU for every write, and on a VM that
 * wake-up is an exit to the hypervisor: about a fifth of the service's CPU per `GET /tasks/{id}`
 * (`perf record`: `sock_def_readable` under `writev`). Written back to back, the answers of a turn
 * wake such a client once, and its next requests arrive together for the next turn.
 *
 * An answer waits at most for the rest of its turn's ready work; a quiet service has one request
 * in a turn, so its answers leave as soon as they did before. Every later onSend hook and the write
 * itself run at the turn's end; a failure there is answered by the error handlers, as it would
 * have been before, and no other answer of the turn is lost.
 */
export function writeAnswersAtTurnEnd(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    answerAtTurnEnd(() => {
      try {
        (done as Continue)(null, payload);
      } catch (err) {
        answerFailure(reply, err);
      }
    });
  });
}

/**
 * What Fastify does when a handler's answer throws as it is sent: the error handlers answer
 * instead (each failing one hands on to the next, down to Fastify's bare fallback).
 */
function answerFailure(reply: FastifyReply, err: unknown): void {
  try {
    reply.send(err);
  } catch (again) {
    (reply.log as FastifyBaseLogger).error({ err: again }, 'the answer could not be written');
    reply.raw.destroy();
  }
}
