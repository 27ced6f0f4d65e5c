import type { Command } from 'commander';
import { getUserByEmail, presentUser, registerUser } from '../../domain/accounts/accounts.js';
import { mintResetLink } from '../../domain/accounts/password-reset.js';
import { withDeps } from '../context.js';

export function register(program: Command): void {
  const user = program.command('user').description('manage accounts');
  user
    .command('create')
    .description('create an account')
    .requiredOption('--email <email>', 'sign-in email')
    .requiredOption('--password <password>', '10 to 1024 characters')
    .option('--name <name>', 'display name')
    .action(async (options: { email: string; password: string; name?: string }) => {
      await withDeps(async (deps) => {
        const row = await registerUser(deps, { email: options.email, password: options.password, name: options.name });
        console.log(JSON.stringify({ user: presentUser(row) }, null, 2));
      });
    });
  user
    .command('reset-link')
    .description('print a one-time password reset link (valid for an hour), for when no mail is configured')
    .requiredOption('--email <email>', 'the account')
    .action(async (options: { email: string }) => {
      await withDeps(async (deps) => {
        const { link } = await mintResetLink(deps, await getUserByEmail(deps, options.email));
        console.log(link.toString());
      });
    });
}
