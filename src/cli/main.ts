import { Command, CommanderError } from 'commander';
import { DomainError } from '../domain/errors.js';
import * as serve from './commands/serve.js';
import * as migrate from './commands/migrate.js';
import * as user from './commands/user.js';
import * as plan from './commands/plan.js';
import * as token from './commands/token.js';
import * as exportCommand from './commands/export.js';
import * as purge from './commands/purge.js';
import * as backup from './commands/backup.js';
import * as restore from './commands/restore.js';
import * as changes from './commands/changes.js';
import { packageVersion } from './version.js';
import { UsageError } from './usage.js';

/** `tasktree`: the operator's door to the same domain layer (CONTRACT §12). */
export function buildProgram(): Command {
  const program = new Command('tasktree')
    .description('Task Tree: run the service and manage it from the shell. Reads the same environment as the server.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride();
  for (const command of [serve, migrate, user, plan, token, exportCommand, backup, restore, purge, changes])
    command.register(program);
  return program;
}

function describe(err: unknown): string {
  if (err instanceof DomainError) {
    const details = err.details === undefined ? '' : ` ${JSON.stringify(err.details)}`;
    return `error: ${err.code}: ${err.message}${details}`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}

/** Exit codes: 0 done, 2 called the wrong way (usage, bad input), 1 anything else that failed. */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

function isUsage(err: unknown): boolean {
  return err instanceof UsageError || (err instanceof DomainError && err.code === 'validation_failed');
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT_OK;
  } catch (err) {
    // Commander has printed its own message (or the help, or the version, which exit 0).
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    console.error(describe(err));
    return isUsage(err) ? EXIT_USAGE : EXIT_ERROR;
  }
}

run(process.argv).then((code) => {
  // `serve` keeps running; every other command ends here.
  if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
});
