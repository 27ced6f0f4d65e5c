import type { Command } from 'commander';
import { serve } from '../../serve.js';

export function register(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP service (PORT, HOST, DATA_DIR, DATABASE_URL, ...)')
    .action(() => serve());
}
