import { sql } from 'kysely';

/**
 * The `version` an update of a tree, project or task sets: one more than the row had (CONTRACT
 * §16.2). Every statement that changes such a row's own fields sets it, once per change: a write
 * that updates a row twice (a move carries the row, then writes its patch) raises it in only one.
 */
export const nextVersion = sql<number>`version + 1`;
