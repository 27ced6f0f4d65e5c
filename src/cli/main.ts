import { Command, CommanderError } from 'commander';
import { DomainError } from '../domain/errors.js';
import * as serve from './commands/serve.js';
import * as migrate from './commands/migrate.js';
import * as user from './commands/user.js';
import * as plan from './commands/plan.js';
import * as token from './commands/token.js';
import * as exportCommand from './commands/export.js';

/** `tasktree`: the operator's door to the same domain layer (CONTRACT §12). */
export function buildProgram(): Command {
  const program = new Command('tasktree')
    .description('Task Tree: run the service and manage it from the shell. Reads the same environment as the server.')
    .exitOverride();
  for (const command of [serve, migrate, user, plan, token, exportCommand]) command.register(program);
  return program;
}

function describe(err: unknown): string {
  if (err instanceof DomainError) {
    const details = err.details === undefined ? '' : ` ${JSON.stringify(err.details)}`;
    return `error: ${err.code}: ${err.message}${details}`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}

export async function run(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    console.error(describe(err));
    return err instanceof DomainError && err.status < 500 ? 2 : 1;
  }
}

run(process.argv).then((code) => {
  // `serve` keeps running; every other command ends here.
  if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
});
