import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file gets its own SQLite dir and PostgreSQL schema, so files may run in parallel.
    fileParallelism: true,
  },
});
