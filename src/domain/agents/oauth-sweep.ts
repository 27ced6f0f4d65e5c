import type { ExpressionBuilder } from 'kysely';
import type { Deps } from '../deps.js';
import type { Database } from '../../store/schema.js';
import { removeUnusedClients } from './oauth-clients.js';
import { writeOutsideTrees } from '../write.js';

const DAY_MS = 86_400_000;
/**
 * Spent codes and tokens stay a day past their expiry or revocation: a code replayed soon after
 * use still finds its row and revokes the grant. A used refresh token is kept until it expires,
 * whatever its age, since presenting it again is how a stolen copy is caught.
 */
export const SPENT_RETENTION_MS = DAY_MS;
/** Revoked grants (connections) stay a week, so a journal entry's grant id can still be traced. */
export const REVOKED_GRANT_RETENTION_MS = 7 * DAY_MS;

export interface OAuthSweep {
  codes: number;
  tokens: number;
  grants: number;
  clients: number;
}

/**
 * A grant that can never be used again and was not revoked: no token and no code left (its
 * refresh token ran out, or consent was given and the code never exchanged). Without this it
 * would stay listed as a connection for ever.
 */
function deadGrant(before: string) {
  return (eb: ExpressionBuilder<Database, 'oauth_grants'>) =>
    eb.and([
      eb('oauth_grants.revoked_at', 'is', null),
      eb('oauth_grants.created_at', '<', before),
      eb.not(
        eb.exists(
          eb
            .selectFrom('oauth_tokens')
            .select('oauth_tokens.token_hash')
            .whereRef('oauth_tokens.grant_id', '=', 'oauth_grants.id'),
        ),
      ),
      eb.not(
        eb.exists(
          eb
            .selectFrom('oauth_codes')
            .select('oauth_codes.code_hash')
            .whereRef('oauth_codes.grant_id', '=', 'oauth_grants.id'),
        ),
      ),
    ]);
}

/**
 * The OAuth retention job, run with the service's other periodic upkeep (and by an operator's
 * one-off purge): removes expired or revoked codes and tokens, dead and long-revoked grants, and
 * clients unused for 30 days (CONTRACT §13). Live rows are never touched. Returns what went.
 */
export async function sweepOAuth(deps: Deps, now = new Date()): Promise<OAuthSweep> {
  const spentBefore = new Date(now.getTime() - SPENT_RETENTION_MS).toISOString();
  const revokedBefore = new Date(now.getTime() - REVOKED_GRANT_RETENTION_MS).toISOString();
  const tokens = await deps.db
    .deleteFrom('oauth_tokens')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', spentBefore),
        eb.and([eb('revoked_at', 'is not', null), eb('revoked_at', '<', spentBefore)]),
      ]),
    )
    .executeTakeFirst();
  const codes = await deps.db.deleteFrom('oauth_codes').where('expires_at', '<', spentBefore).executeTakeFirst();
  const grants = await writeOutsideTrees(deps, async ({ trx }) => {
    // Sessions of a grant that goes end with it (a revoked grant's ended when it was revoked).
    await trx
      .updateTable('mcp_sessions')
      .set({ ended_at: now.toISOString() })
      .where('ended_at', 'is', null)
      .where('credential_id', 'in', (eb) =>
        eb.selectFrom('oauth_grants').select('oauth_grants.id').where(deadGrant(spentBefore)),
      )
      .execute();
    const dead = await trx.deleteFrom('oauth_grants').where(deadGrant(spentBefore)).executeTakeFirst();
    const revoked = await trx
      .deleteFrom('oauth_grants')
      .where('revoked_at', 'is not', null)
      .where('revoked_at', '<', revokedBefore)
      .executeTakeFirst();
    return Number(dead.numDeletedRows) + Number(revoked.numDeletedRows);
  });
  const clients = await removeUnusedClients(deps, now);
  return { codes: Number(codes.numDeletedRows), tokens: Number(tokens.numDeletedRows), grants, clients };
}
