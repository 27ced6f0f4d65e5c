import { sql } from 'kysely';

/** The `version` a task update sets: one more than the row had. Every update of a task uses it. */
export const nextVersion = sql<number>`version + 1`;
