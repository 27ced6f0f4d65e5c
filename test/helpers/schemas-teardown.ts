import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    testSchemaRun: string;
  }
}

/**
 * The PostgreSQL schemas of a test run are dropped once, when the run ends, not by each test file
 * as it finishes. Kysely's migrator reads every schema of the database (its introspector calls
 * `has_schema_privilege(nspname, …)` per row), and a schema another file drops between the
 * catalog read and that call fails the migration with `schema "t_…" does not exist`: a test
 * file starting while another one ended failed at random. Each run's schemas share a prefix, so
 * the teardown drops only its own and never those of a run beside it.
 */
export default function setup(project: TestProject) {
  const run = `t${randomBytes(4).toString('hex')}`;
  project.provide('testSchemaRun', run);
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (url === undefined || url === '') return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        `select nspname from pg_namespace where nspname like $1`,
        [`${run}\\_%`],
      );
      for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`);
    } finally {
      await client.end();
    }
  };
}
