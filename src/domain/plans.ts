/** Plan tiers and their limits (CONTRACT §4). The only place these numbers live. */
export const planNames = ['seed', 'sprout', 'grove'] as const;
export type PlanName = (typeof planNames)[number];

export interface PlanLimits {
  apiWrites: boolean;
  trees: number;
  projectsPerTree: number;
  tasksPerTree: number;
  attachmentBytes: number;
  historyDays: number;
  transcription: boolean;
  sharing: boolean;
}

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const planLimits: Record<PlanName, PlanLimits> = {
  seed: {
    apiWrites: false,
    trees: 3,
    projectsPerTree: 50,
    tasksPerTree: 500,
    attachmentBytes: 100 * MiB,
    historyDays: 7,
    transcription: false,
    sharing: false,
  },
  sprout: {
    apiWrites: true,
    trees: 25,
    projectsPerTree: 500,
    tasksPerTree: 10_000,
    attachmentBytes: 5 * GiB,
    historyDays: 90,
    transcription: true,
    sharing: false,
  },
  grove: {
    apiWrites: true,
    trees: 250,
    projectsPerTree: 5_000,
    tasksPerTree: 50_000,
    attachmentBytes: 50 * GiB,
    historyDays: 365,
    transcription: true,
    sharing: true,
  },
};

const planNameSet: ReadonlySet<string> = new Set(planNames);

export function isPlanName(value: string): value is PlanName {
  return planNameSet.has(value);
}

/** The plan in force: the stored plan while it has not expired, else Seed. Evaluated on every request. */
export function effectivePlan(plan: string, expiresAt: string | null, now?: Date): PlanName {
  if (!isPlanName(plan) || plan === 'seed') return 'seed';
  // The clock is read only for a plan that can lapse: this runs on every authenticated request.
  if (expiresAt !== null && Date.parse(expiresAt) <= (now?.getTime() ?? Date.now())) return 'seed';
  return plan;
}
