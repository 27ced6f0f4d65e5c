import type { Command } from 'commander';
import { createToken } from '../../domain/agents/tokens.js';
import { invalid } from '../../domain/errors.js';
import { actorByEmail, withDeps } from '../context.js';

export function register(program: Command): void {
  const token = program.command('token').description('manage personal tokens');
  token
    .command('create')
    .description('create a personal token and print its value once')
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--name <name>', 'a name to recognise it by')
    .option('--scopes <list>', 'comma-separated: read,write,attachments (default: what the plan allows)')
    .option('--expires-in-days <days>', '1, 7, 30, 90 or 365', '90')
    .action(async (options: { email: string; name: string; scopes?: string; expiresInDays: string }) => {
      const days = Number(options.expiresInDays);
      if (!Number.isInteger(days)) throw invalid('/expires_in_days', 'must be 1, 7, 30, 90 or 365');
      await withDeps(async (deps) => {
        const actor = await actorByEmail(deps, options.email);
        const scopes = options.scopes?.split(',').map((s) => s.trim()).filter((s) => s !== '');
        const created = await createToken(deps, actor, { name: options.name, scopes, expires_in_days: days });
        console.error(`token ${created.token.id} (${created.token.scopes.join(', ')}), expires ${created.token.expires_at}; the value is shown once:`);
        console.log(created.value);
      });
    });
}
