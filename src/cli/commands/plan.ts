import type { Command } from 'commander';
import { presentUser, setUserPlan } from '../../domain/accounts/accounts.js';
import { isPlanName, planNames } from '../../domain/plans.js';
import { invalid } from '../../domain/errors.js';
import { withDeps } from '../context.js';

export function register(program: Command): void {
  const plan = program.command('plan').description('manage plans');
  plan
    .command('set')
    .description("change a user's plan")
    .requiredOption('--email <email>', 'the account')
    .requiredOption('--plan <plan>', planNames.join('|'))
    .option('--until <iso>', 'when the plan ends (ISO 8601); without it the plan does not expire')
    .action(async (options: { email: string; plan: string; until?: string }) => {
      if (!isPlanName(options.plan)) throw invalid('/plan', `must be one of ${planNames.join(', ')}`);
      const planName = options.plan;
      await withDeps(async (deps) => {
        const row = await setUserPlan(deps, options.email, planName, options.until ?? null);
        console.log(JSON.stringify({ user: presentUser(row) }, null, 2));
      });
    });
}
