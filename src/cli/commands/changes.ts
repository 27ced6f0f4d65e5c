import type { Command } from 'commander';
import { revertChange, revertTreeChanges, treeOfChangeOrThrow } from '../../domain/trees/revert.js';
import { treeOwner } from '../../domain/trees/trees.js';
import { actorByEmail, withDeps } from '../context.js';
import { printJson } from '../output.js';
import { UsageError } from '../usage.js';

interface RevertOptions {
  id?: string;
  tree?: string;
  credential?: string;
  since?: string;
  force?: boolean;
  asUser?: string;
}

/**
 * `tasktree changes revert`: undo one change, or every change a credential made in a tree since a
 * moment (an operator cleaning up after a runaway agent), through the same domain functions as
 * POST /changes/{id}/revert and POST /trees/{id}/revert (CONTRACT §16.3). The command is a change
 * of its own; it acts as the tree owner unless --as-user names someone else.
 */
export function register(program: Command): void {
  const changes = program.command('changes').description('undo what was written (CONTRACT §16.3)');
  changes
    .command('revert')
    .description(
      'revert one change (--id), or a credential’s changes in a tree since a moment (--tree --credential --since)',
    )
    .option('--id <chg>', 'the change to revert')
    .option('--tree <id>', 'the tree whose changes to revert')
    .option('--credential <id>', 'the personal token (pat_…) or OAuth grant whose changes to revert')
    .option('--since <iso>', 'revert its changes at or after this moment (ISO 8601 with a time zone)')
    .option('--force', 'revert even when records were changed again later (only the fields the change wrote)')
    .option('--as-user <email>', 'act as this user (default: the tree owner)')
    .action(async (options: RevertOptions) => {
      const byTree = options.tree !== undefined || options.credential !== undefined || options.since !== undefined;
      if (options.id !== undefined && byTree)
        throw new UsageError('give either --id, or --tree, --credential and --since');
      if (
        options.id === undefined &&
        (options.tree === undefined || options.credential === undefined || options.since === undefined)
      )
        throw new UsageError('give --id, or all of --tree, --credential and --since');
      const force = options.force === true;
      await withDeps(async (deps) => {
        const treeId = options.id !== undefined ? await treeOfChangeOrThrow(deps, options.id) : options.tree!;
        const actor = await actorByEmail(deps, options.asUser ?? (await treeOwner(deps, treeId)).email);
        const result =
          options.id !== undefined
            ? await revertChange(deps, actor, options.id, { force })
            : await revertTreeChanges(
                deps,
                actor,
                treeId,
                { credential_id: options.credential!, since: options.since! },
                { force },
              );
        printJson(result);
      });
    });
}
