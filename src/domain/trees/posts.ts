import { checkLength } from '../validate.js';

/** Comments on tasks and messages on trees: a body of 1 to 10,000 characters (CONTRACT §10). */
export const POST_BODY_MAX = 10_000;

export function checkBody(body: string): void {
  checkLength('/body', body, 1, POST_BODY_MAX);
}
