import { Type } from '@sinclair/typebox';

/** Liveness and readiness, outside /api/v1 and without credentials. */
export const healthSchema = {
  tags: ['Service'],
  operationId: 'getHealth',
  summary: 'Liveness',
  description: 'Answers 200 while the process lives; needs no credentials.',
  response: { 200: Type.Object({ status: Type.Literal('ok') }) },
};

export const readinessSchema = {
  tags: ['Service'],
  operationId: 'getReadiness',
  summary: 'Readiness: the database answers',
  description: 'Answers 200 when the database answers a query, else 503; needs no credentials.',
  response: {
    200: Type.Object({ status: Type.Literal('ready') }),
    503: Type.Object({ status: Type.Literal('unavailable') }, { description: 'The database does not answer' }),
  },
};
