import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { backupSqlite, SQLITE_FILE_NAME } from '../../store/sqlite-files.js';
import { pgDumpCommands } from '../../store/pg-dump.js';
import { UsageError } from '../usage.js';

export function register(program: Command): void {
  program
    .command('backup')
    .description(
      'SQLite: copy the database to FILE, consistent even while the service writes. PostgreSQL: print the pg_dump line to run',
    )
    .requiredOption('--to <file>', 'where the copy goes')
    .option('--force', 'replace FILE if it exists')
    .action(async (options: { to: string; force?: boolean }) => {
      const config = loadConfig();
      const target = resolve(options.to);
      if (config.databaseUrl !== null) {
        const commands = pgDumpCommands(config.databaseUrl, config.databaseSchema, target);
        console.log(commands.dump);
        console.error("PostgreSQL: run the line above with a pg_dump of the server's major version; restore with:");
        console.error(`  ${commands.restore}`);
        if (commands.passwordOmitted)
          console.error(
            'DATABASE_URL holds a password, left out here: give it to pg_dump as PGPASSWORD or in ~/.pgpass.',
          );
        return;
      }
      if (existsSync(target) && options.force !== true)
        throw new UsageError(`${target} exists; pass --force to replace it`);
      const { bytes } = await backupSqlite(join(config.dataDir, SQLITE_FILE_NAME), target);
      console.log(target);
      console.error(
        `backed up ${bytes} bytes. Attachments are files in ${join(config.dataDir, 'blobs')} and the generated secret is ${join(config.dataDir, 'secret')}: copy them too.`,
      );
    });
}
