import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { migrateToLatest, openStore } from '../../store/db.js';

export function register(program: Command): void {
  program
    .command('migrate')
    .description('bring the database schema up to date (the server also does this at start)')
    .action(async () => {
      const store = await openStore(loadConfig());
      try {
        const applied = await migrateToLatest(store);
        console.log(applied.length === 0 ? 'schema is up to date' : `applied: ${applied.join(', ')}`);
      } finally {
        await store.close();
      }
    });
}
