import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import { presentUser } from '../accounts/accounts.js';
import { planLimits, planNames, type PlanName } from '../plans.js';

export interface PlanOffer {
  id: PlanName;
  price: { amount: number; currency: string; interval: 'month' } | null;
  limits: {
    agent_writes: boolean;
    trees: number;
    projects_per_tree: number;
    tasks_per_tree: number;
    storage_bytes: number;
    history_days: number;
    transcription: boolean;
    sharing: boolean;
  };
}

export interface BillingOverview {
  mode: 'test';
  configured: boolean;
  plan: PlanName;
  plan_expires_at: string | null;
  effective_plan: PlanName;
  plans: PlanOffer[];
}

/** Every plan with its price and its limits, read from plans.ts so the page never drifts from what is enforced. */
export function planOffers(deps: Deps): PlanOffer[] {
  const { currency, prices } = deps.config.billing;
  return planNames.map((id) => {
    const limits = planLimits[id];
    return {
      id,
      price: id === 'seed' ? null : { amount: prices[id], currency, interval: 'month' as const },
      limits: {
        agent_writes: limits.apiWrites,
        trees: limits.trees,
        projects_per_tree: limits.projectsPerTree,
        tasks_per_tree: limits.tasksPerTree,
        storage_bytes: limits.attachmentBytes,
        history_days: limits.historyDays,
        transcription: limits.transcription,
        sharing: limits.sharing,
      },
    };
  });
}

/** The billing page's data (CONTRACT §14): the user's plan now and what can be bought. Session only, checked at the door. */
export function getBilling(deps: Deps, actor: Actor): BillingOverview {
  const user = presentUser(actor.user);
  return {
    mode: 'test',
    configured: deps.billing !== null,
    plan: user.plan,
    plan_expires_at: user.plan_expires_at,
    effective_plan: user.effective_plan,
    plans: planOffers(deps),
  };
}
