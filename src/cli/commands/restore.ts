import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { restoreSqlite, SQLITE_FILE_NAME } from '../../store/sqlite-files.js';
import { UsageError } from '../usage.js';

export function register(program: Command): void {
  program
    .command('restore')
    .description('SQLite, service stopped: put a backup in place of the database, keeping the previous file as .bak')
    .requiredOption('--from <file>', 'a file made by tasktree backup')
    .action((options: { from: string }) => {
      const config = loadConfig();
      if (config.databaseUrl !== null) {
        throw new UsageError(
          'restore is for the embedded SQLite store; with PostgreSQL use the pg_restore line that `tasktree backup` prints',
        );
      }
      const live = join(config.dataDir, SQLITE_FILE_NAME);
      const { previous } = restoreSqlite(resolve(options.from), live);
      console.error(
        previous === null ? `restored into ${live}` : `restored into ${live}; the previous database is ${previous}`,
      );
      console.error('The next start migrates it if it is older than this version.');
    });
}
