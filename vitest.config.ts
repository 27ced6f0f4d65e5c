import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // PostgreSQL schemas of the run are dropped when it ends (see the file for why).
    globalSetup: ['test/helpers/schemas-teardown.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file gets its own SQLite dir and PostgreSQL schema, so files may run in parallel.
    fileParallelism: true,
  },
});
