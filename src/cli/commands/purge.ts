import type { Command } from 'commander';
import { runRetention } from '../../retention.js';
import { withDeps } from '../context.js';
import { formatTable, printJson } from '../output.js';

export function register(program: Command): void {
  program
    .command('purge')
    .description('run the retention jobs once, as the server does every hour (safe while it serves)')
    .option('--json', 'print JSON: {jobs: [{job, removed} | {job, error}]}')
    .action(async (options: { json?: boolean }) => {
      await withDeps(async (deps) => {
        const outcomes = await runRetention(deps);
        if (options.json === true) printJson({ jobs: outcomes });
        else
          console.log(
            formatTable(
              ['JOB', 'REMOVED'],
              outcomes.map((o) => [o.job, 'error' in o ? `failed: ${o.error}` : o.removed]),
            ),
          );
        const failed = outcomes.filter((o) => 'error' in o).map((o) => o.job);
        if (failed.length > 0) throw new Error(`retention failed for ${failed.join(', ')}`);
      });
    });
}
