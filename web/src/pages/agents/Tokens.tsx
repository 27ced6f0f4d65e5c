import { useState } from 'preact/hooks';
import { tokens, trees as treesApi } from '../../api/endpoints';
import type { Token } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { Confirm } from '../../components/Confirm';
import { CreateTokenDialog } from './CreateTokenDialog';
import { ShownOnce } from './ShownOnce';
import { TableScroll } from '../../components/TableScroll';
import { treesText } from './TreeChoice';
import { UndoSince } from './UndoSince';
import { undoneSinceText } from '../changes/undoneText';

/** Personal tokens: loading, error, empty and list branches; the list reloads after every change. */
export function Tokens() {
  const t = useT();
  const user = useUser();
  const list = useLoad(() => tokens.list(), []);
  // The trees a token may be limited to, and the names its row shows; a failure leaves the choice empty.
  const trees = useLoad(() => treesApi.list().catch(() => []), []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ token: Token; value: string } | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const [undoing, setUndoing] = useState<Token | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const date = (iso: string | null) => (iso === null ? t('common.never') : formatDateTime(iso, user.timezone));

  return (
    <section class="card" aria-labelledby="tokens-title">
      <div class="spread">
        <h2 id="tokens-title">{t('agents.tokens')}</h2>
        {/* Hidden while the dialog is open, so exactly one control is named "Create token". */}
        {!creating ? (
          <button
            type="button"
            class="btn primary"
            onClick={() => {
              setCreated(null);
              setCreating(true);
            }}
          >
            {t('agents.createToken')}
          </button>
        ) : null}
      </div>
      <p class="section-lead">{t('agents.tokensLead')}</p>
      {created !== null ? (
        <ShownOnce name={created.token.name} value={created.value} onDone={() => setCreated(null)} />
      ) : null}
      <ErrorNote error={list.error} onRetry={list.reload} />
      <p class={outcome !== null ? 'note ok' : 'visually-hidden'} role="status">
        {outcome ?? ''}
      </p>
      {list.loading && list.data === null ? <p class="muted">{t('common.loading')}</p> : null}
      {list.data !== null && list.data.length === 0 ? <p class="empty">{t('agents.noTokens')}</p> : null}
      {list.data !== null && list.data.length > 0 ? (
        <TableScroll labelledBy="tokens-title">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('agents.tokenName')}</th>
                <th scope="col">{t('agents.prefix')}</th>
                <th scope="col">{t('fields.scopes')}</th>
                <th scope="col">{t('agents.trees')}</th>
                <th scope="col">{t('agents.lastUsed')}</th>
                <th scope="col">{t('agents.expires')}</th>
                <th scope="col">{t('agents.statusLabel')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('agents.revoke')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((token) => (
                <tr key={token.id}>
                  <td id={`token-${token.id}`}>{token.name}</td>
                  <td>
                    <code>{token.prefix}…</code>
                  </td>
                  <td>{token.scopes.join(', ')}</td>
                  <td>{treesText(token.tree_ids, trees.data, t)}</td>
                  <td>{date(token.last_used_at)}</td>
                  <td>{date(token.expires_at)}</td>
                  <td>
                    <span class={token.status === 'active' ? 'badge' : 'badge grey'}>
                      {t(`agents.tokenStatus.${token.status}`)}
                    </span>
                  </td>
                  <td>
                    <span class="row">
                      <button
                        type="button"
                        class="btn small"
                        aria-describedby={`token-${token.id}`}
                        onClick={() => setUndoing(token)}
                      >
                        {t('changes.since.button')}
                      </button>
                      {token.status === 'active' ? (
                        <button
                          type="button"
                          class="btn small danger"
                          aria-describedby={`token-${token.id}`}
                          onClick={() => setRevoking(token)}
                        >
                          {t('agents.revoke')}
                        </button>
                      ) : null}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {creating ? (
        <CreateTokenDialog
          trees={trees.data}
          onCreated={(answer) => {
            setCreated(answer);
            void list.reload();
          }}
          onClose={() => setCreating(false)}
        />
      ) : null}
      {undoing !== null ? (
        <UndoSince
          credentialId={undoing.id}
          name={undoing.name}
          treeIds={undoing.tree_ids}
          trees={trees.data}
          onDone={(result) => setOutcome(undoneSinceText(t, result))}
          onClose={() => setUndoing(null)}
        />
      ) : null}
      {revoking !== null ? (
        <Confirm
          title={t('agents.revokeTitle')}
          text={t('agents.revokeText', { name: revoking.name })}
          confirmLabel={t('agents.revoke')}
          onConfirm={async () => {
            await tokens.revoke(revoking.id);
            await list.reload();
          }}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}
