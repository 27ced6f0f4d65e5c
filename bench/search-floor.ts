import { join } from 'node:path';
import pg from 'pg';
import { startBaseline, type BenchServer, type Client } from './lib.js';
import { searchQuery } from './search-data.js';
import { userIndexes } from './suites/01-clients.js';
import { parseTerms } from '../src/domain/trees/search.js';
import { searchStatement } from '../src/store/task-search.js';
import { loadSqlite } from '../src/store/sqlite-driver.js';
import { SQLITE_FILE_NAME } from '../src/store/sqlite-files.js';
import type { Db } from '../src/store/types.js';

/**
 * The floor of a search: bare Fastify running the very statement the service runs for page one
 * of each user's query (store/task-search.ts `searchStatement`), prepared once on a connection of its own
 * (better-sqlite3 on the service's file, or a pg pool in its schema), and answering the rows as
 * JSON: no credential, pipeline, validation, cursor, presentation, ETag or journal. `GET /?u=i`
 * searches as the i-th user of `clients`. Start it while the in-process app still runs (the
 * statements are compiled by its Kysely); it keeps working after `asProcess`.
 */
export async function startSearchFloor(server: BenchServer, clients: Client[]) {
  const db: Db = server.app.deps.db;
  const owners = [...userIndexes(clients)];
  const statements = owners.map(([ownerId, u]) =>
    searchStatement(db, {
      visible: { ownerId, shared: [], scope: null },
      terms: parseTerms(searchQuery(u)),
      after: 0,
      upTo: null,
      take: 101,
    }),
  );
  const text = statements[0]!.sql;
  let run: (parameters: readonly unknown[]) => Promise<unknown[]>;
  let close: () => Promise<void>;
  if (server.kind === 'postgres') {
    const config = server.app.deps.config;
    const pool = new pg.Pool({
      connectionString: config.databaseUrl!,
      options: `-c search_path=${config.databaseSchema}`,
      max: 10,
    });
    run = async (parameters) => (await pool.query({ name: 'floor', text, values: [...parameters] })).rows;
    close = () => pool.end();
  } else {
    const Database = loadSqlite();
    const handle = new Database(join(server.app.deps.config.dataDir, SQLITE_FILE_NAME), { readonly: true });
    handle.function('casefold', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : value,
    );
    const statement = handle.prepare(text);
    run = (parameters) => Promise.resolve(statement.all(...parameters));
    close = () => Promise.resolve(void handle.close());
  }
  const floor = await startBaseline((app) =>
    app.get('/', async (request) => {
      const u = Number((request.query as { u?: string }).u ?? 0);
      return { items: await run(statements[u % statements.length]!.parameters) };
    }),
  );
  return {
    url: floor.url,
    /** The floor's path for each client, by its user. */
    paths: clients.map((c) => `/?u=${owners.findIndex(([id]) => id === c.actor.user.id)}`),
    async close() {
      await floor.close();
      await close();
    },
  };
}
