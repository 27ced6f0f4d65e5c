import type { Command } from 'commander';
import { getUserByEmail, presentUser, registerUser } from '../../domain/accounts/accounts.js';
import { mintResetLink } from '../../domain/accounts/password-reset.js';
import { verifyEmailByOperator } from '../../domain/accounts/email-verification.js';
import {
  ACCOUNT_PAGE_MAX,
  listAccounts,
  summarizeAccount,
  type AccountListItem,
} from '../../domain/accounts/directory.js';
import { withDeps } from '../context.js';
import { formatRecord, formatTable, printJson } from '../output.js';
import { wholeNumber } from '../usage.js';

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
  user
    .command('verify')
    .description(
      "mark an account's email as verified (you vouch for the address); invitations sent to it then reach the account",
    )
    .requiredOption('--email <email>', 'the account')
    .action(async (options: { email: string }) => {
      await withDeps(async (deps) => {
        const row = await verifyEmailByOperator(deps, options.email);
        console.log(JSON.stringify({ user: presentUser(row) }, null, 2));
      });
    });
  user
    .command('list')
    .description('list accounts by email, a page at a time (or --all)')
    .option('--limit <n>', `accounts per page, 1..${ACCOUNT_PAGE_MAX}`, wholeNumber(ACCOUNT_PAGE_MAX), 50)
    .option('--after <email>', 'start after this email (the "next" hint of the previous page)')
    .option('--all', 'every account, page after page')
    .option('--json', 'print JSON: {items, next_after}')
    .action(async (options: { limit: number; after?: string; all?: boolean; json?: boolean }) => {
      await withDeps(async (deps) => {
        const items: AccountListItem[] = [];
        let after = options.after;
        let next: string | null;
        do {
          const page = await listAccounts(deps, {
            after,
            limit: options.all === true ? ACCOUNT_PAGE_MAX : options.limit,
          });
          items.push(...page.items);
          next = page.next_after;
          after = next ?? undefined;
        } while (options.all === true && next !== null);
        if (options.json === true) return printJson({ items, next_after: next });
        console.log(
          formatTable(
            ['EMAIL', 'ID', 'PLAN', 'EFFECTIVE', 'TREES', 'CREATED'],
            items.map((u) => [u.email, u.id, u.plan, u.effective_plan, u.trees, u.created_at]),
          ),
        );
        if (next !== null) console.error(`more: --after ${next}`);
      });
    });
  user
    .command('show')
    .description('one account: profile, plan, what it owns, and the credentials that reach it (counts only)')
    .requiredOption('--email <email>', 'the account')
    .option('--json', 'print JSON')
    .action(async (options: { email: string; json?: boolean }) => {
      await withDeps(async (deps) => {
        const summary = await summarizeAccount(deps, await getUserByEmail(deps, options.email));
        if (options.json === true) printJson(summary);
        else console.log(formatRecord(summary));
      });
    });
}
