import { useState } from 'preact/hooks';
import { oauthConnections, trees as treesApi } from '../../api/endpoints';
import type { OAuthConnection } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { Confirm } from '../../components/Confirm';
import { TableScroll } from '../../components/TableScroll';
import { treesText } from './TreeChoice';
import { UndoSince } from './UndoSince';
import { undoneSinceText } from '../changes/undoneText';

/** Apps connected through OAuth (one row per consent): loading, error, empty and list branches; reloads after a revoke. */
export function Connections() {
  const t = useT();
  const user = useUser();
  const list = useLoad(() => oauthConnections.list(), []);
  // Names for a connection's trees (CONTRACT §16.1); a failure leaves them unnamed, never blocks the list.
  const trees = useLoad(() => treesApi.list().catch(() => []), []);
  const [revoking, setRevoking] = useState<OAuthConnection | null>(null);
  const [undoing, setUndoing] = useState<OAuthConnection | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const date = (iso: string | null) => (iso === null ? t('common.never') : formatDateTime(iso, user.timezone));

  return (
    <section class="card" aria-labelledby="oauth-title">
      <h2 id="oauth-title">{t('agents.oauth')}</h2>
      <p class="section-lead">{t('agents.oauthLead')}</p>
      <ErrorNote error={list.error} onRetry={list.reload} />
      <p class={outcome !== null ? 'note ok' : 'visually-hidden'} role="status">
        {outcome ?? ''}
      </p>
      {list.loading && list.data === null ? <p class="muted">{t('common.loading')}</p> : null}
      {list.data !== null && list.data.length === 0 ? <p class="empty">{t('agents.noConnections')}</p> : null}
      {list.data !== null && list.data.length > 0 ? (
        <TableScroll labelledBy="oauth-title">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('agents.app')}</th>
                <th scope="col">{t('fields.scopes')}</th>
                <th scope="col">{t('agents.trees')}</th>
                <th scope="col">{t('agents.resource')}</th>
                <th scope="col">{t('agents.connected')}</th>
                <th scope="col">{t('agents.lastUsed')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('agents.revoke')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((connection) => (
                <tr key={connection.id} data-connection-id={connection.id}>
                  {/* The name is the app's own claim: Preact renders it as text, never markup. */}
                  <td id={`connection-${connection.id}`}>{connection.client_name}</td>
                  <td>{connection.scopes.join(', ')}</td>
                  <td>{treesText(connection.tree_ids, trees.data, t)}</td>
                  <td>
                    <code>{connection.resource}</code>
                  </td>
                  <td>{date(connection.created_at)}</td>
                  <td>{date(connection.last_used_at)}</td>
                  <td>
                    <span class="row">
                      <button
                        type="button"
                        class="btn small"
                        aria-describedby={`connection-${connection.id}`}
                        onClick={() => setUndoing(connection)}
                      >
                        {t('changes.since.button')}
                      </button>
                      <button
                        type="button"
                        class="btn small danger"
                        aria-describedby={`connection-${connection.id}`}
                        onClick={() => setRevoking(connection)}
                      >
                        {t('agents.revoke')}
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {undoing !== null ? (
        <UndoSince
          credentialId={undoing.id}
          name={undoing.client_name}
          treeIds={undoing.tree_ids}
          trees={trees.data}
          onDone={(result) => setOutcome(undoneSinceText(t, result))}
          onClose={() => setUndoing(null)}
        />
      ) : null}
      {revoking !== null ? (
        <Confirm
          title={t('agents.revokeConnectionTitle')}
          text={t('agents.revokeConnectionText', { name: revoking.client_name })}
          confirmLabel={t('agents.revoke')}
          onConfirm={async () => {
            await oauthConnections.revoke(revoking.id);
            await list.reload();
          }}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}
