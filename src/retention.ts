import type { Deps } from './domain/deps.js';
import { purgeExpiredIdempotencyKeys } from './domain/idempotency-keys.js';
import { purgeHistory } from './domain/trees/history-purge.js';
import { purgeExpiredSessions } from './domain/accounts/sessions.js';
import { purgeExpiredResets } from './domain/accounts/password-reset.js';
import { purgeExpiredVerifications } from './domain/accounts/email-verification.js';
import { purgeDeadMcpSessions } from './domain/agents/mcp-sessions.js';
import { sweepOAuth } from './domain/agents/oauth-sweep.js';
import { sweepBlobs } from './domain/files/blob-sweep.js';

/** One retention job: removes what has outlived its purpose and says how much went. */
export interface RetentionJob {
  name: string;
  run(deps: Deps, now: Date): Promise<number>;
}

/**
 * Everything the service forgets on a schedule. The server's hourly timer and `tasktree purge`
 * both run this list, so a new job added here runs in both places. The agent call journal needs
 * no entry: it keeps its newest 2,000 calls per owner at every write (CONTRACT §8).
 */
export const retentionJobs: RetentionJob[] = [
  { name: 'idempotency_keys', run: (deps, now) => purgeExpiredIdempotencyKeys(deps, now) },
  { name: 'history', run: (deps, now) => purgeHistory(deps, now) },
  { name: 'sessions', run: (deps, now) => purgeExpiredSessions(deps, now) },
  { name: 'password_resets', run: (deps, now) => purgeExpiredResets(deps, now) },
  { name: 'email_verifications', run: (deps, now) => purgeExpiredVerifications(deps, now) },
  { name: 'mcp_sessions', run: (deps, now) => purgeDeadMcpSessions(deps, now) },
  {
    name: 'oauth',
    run: async (deps, now) => Object.values(await sweepOAuth(deps, now)).reduce((sum, n) => sum + n, 0),
  },
  { name: 'blobs', run: (deps, now) => sweepBlobs(deps, now.getTime()) },
];

export type RetentionOutcome = { job: string; removed: number } | { job: string; error: string };

/**
 * Runs every job once, one after the other (they are light, and a small database should not
 * see them all at once). A failing job is reported and the others still run.
 */
export async function runRetention(
  deps: Deps,
  jobs: readonly RetentionJob[] = retentionJobs,
  now = new Date(),
): Promise<RetentionOutcome[]> {
  const outcomes: RetentionOutcome[] = [];
  for (const job of jobs) {
    try {
      outcomes.push({ job: job.name, removed: await job.run(deps, now) });
    } catch (err) {
      outcomes.push({ job: job.name, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return outcomes;
}
