import type { Command } from 'commander';
import { createToken, listTokens, revokeToken, tokenOwner } from '../../domain/agents/tokens.js';
import { userActor } from '../../domain/actor.js';
import { invalid } from '../../domain/errors.js';
import { actorByEmail, withDeps } from '../context.js';
import { formatTable, printJson } from '../output.js';

export function register(program: Command): void {
  const token = program.command('token').description('manage personal tokens');
  token
    .command('create')
    .description('create a personal token and print its value once')
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--name <name>', 'a name to recognise it by')
    .option('--scopes <list>', 'comma-separated: read,write,attachments (default: what the plan allows)')
    .option('--expires-in-days <days>', '1, 7, 30, 90 or 365', '90')
    .option(
      '--trees <list>',
      'comma-separated tree ids to limit the token to (default: every tree the account can see)',
    )
    .action(
      async (options: { email: string; name: string; scopes?: string; expiresInDays: string; trees?: string }) => {
        const days = Number(options.expiresInDays);
        if (!Number.isInteger(days)) throw invalid('/expires_in_days', 'must be 1, 7, 30, 90 or 365');
        await withDeps(async (deps) => {
          const actor = await actorByEmail(deps, options.email);
          const scopes = options.scopes
            ?.split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
          // Kept as written, blanks and repeats included, so the domain refuses them as POST /tokens does.
          const treeIds = options.trees?.split(',').map((s) => s.trim());
          const created = await createToken(deps, actor, {
            name: options.name,
            scopes,
            expires_in_days: days,
            tree_ids: treeIds,
          });
          const trees = created.token.tree_ids === null ? '' : `, trees ${created.token.tree_ids.join(', ')}`;
          console.error(
            `token ${created.token.id} (${created.token.scopes.join(', ')}${trees}), expires ${created.token.expires_at}; the value is shown once:`,
          );
          console.log(created.value);
        });
      },
    );
  token
    .command('list')
    .description("an account's personal tokens, newest first (never their values)")
    .requiredOption('--email <email>', 'the account')
    .option('--json', 'print JSON: {items} as GET /tokens answers')
    .action(async (options: { email: string; json?: boolean }) => {
      await withDeps(async (deps) => {
        const items = await listTokens(deps, await actorByEmail(deps, options.email));
        if (options.json === true) return printJson({ items });
        console.log(
          formatTable(
            ['ID', 'NAME', 'SCOPES', 'STATUS', 'CREATED', 'LAST USED', 'EXPIRES'],
            items.map((t) => [t.id, t.name, t.scopes.join(','), t.status, t.created_at, t.last_used_at, t.expires_at]),
          ),
        );
      });
    });
  token
    .command('revoke')
    .description(
      'revoke a personal token as its owner would: the next request with it is refused and its MCP sessions end',
    )
    .requiredOption('--id <id>', 'the token id (from token list)')
    .action(async (options: { id: string }) => {
      await withDeps(async (deps) => {
        const owner = await tokenOwner(deps, options.id);
        await revokeToken(deps, userActor(owner, 'cli'), options.id);
        console.error(`token ${options.id} of ${owner.email} is revoked`);
      });
    });
}
