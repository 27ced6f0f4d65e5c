import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { exportTree } from '../../domain/trees/export.js';
import { treeOwner } from '../../domain/trees/trees.js';
import { actorByEmail, withDeps } from '../context.js';

export function register(program: Command): void {
  program
    .command('export')
    .description('write the JSON export of a tree (the same document as GET /trees/{id}/export)')
    .requiredOption('--tree <id>', 'the tree')
    .option('--as-user <email>', 'act as this user (default: the tree owner)')
    .option('--output <file>', 'write to a file instead of standard output')
    .action(async (options: { tree: string; asUser?: string; output?: string }) => {
      await withDeps(async (deps) => {
        const email = options.asUser ?? (await treeOwner(deps, options.tree)).email;
        const document = JSON.stringify(await exportTree(deps, await actorByEmail(deps, email), options.tree), null, 2);
        if (options.output !== undefined) writeFileSync(options.output, document + '\n');
        else console.log(document);
      });
    });
}
