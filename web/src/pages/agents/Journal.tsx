import { useState } from 'preact/hooks';
import { agentCalls, changes, oauthConnections, tokens } from '../../api/endpoints';
import type { AgentCall } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { TableScroll } from '../../components/TableScroll';
import { UndoDialog } from '../changes/UndoDialog';
import { describeLaterChanges } from '../changes/laterText';
import { undoneText } from '../changes/undoneText';

/** The agent call journal: the latest 100 calls, newest first, refreshed on demand. */
export function Journal() {
  const t = useT();
  const user = useUser();
  const calls = useLoad(() => agentCalls.latest(), []);
  // Which token made a call, by its name: personal tokens (pat_) and OAuth grants (the journal's token_id for OAuth).
  const tokenNames = useLoad(async () => {
    const [own, granted] = await Promise.all([tokens.list().catch(() => []), oauthConnections.list().catch(() => [])]);
    return new Map([...own.map((x) => [x.id, x.name] as const), ...granted.map((x) => [x.id, x.client_name] as const)]);
  }, []);
  const [undoing, setUndoing] = useState<AgentCall | null>(null);
  const [undone, setUndone] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<string | null>(null);
  const tokenName = (call: AgentCall) => tokenNames.data?.get(call.token_id) ?? null;
  return (
    <section class="card" aria-labelledby="journal-title">
      <div class="spread">
        <h2 id="journal-title">{t('agents.journal')}</h2>
        <button
          type="button"
          class="btn small"
          onClick={() => {
            void calls.reload();
            void tokenNames.reload();
          }}
          disabled={calls.loading}
        >
          {t('common.refresh')}
        </button>
      </div>
      <p class="section-lead">{t('agents.journalLead')}</p>
      <ErrorNote error={calls.error} onRetry={calls.reload} />
      <p class={outcome !== null ? 'note ok' : 'visually-hidden'} role="status">
        {outcome ?? ''}
      </p>
      {calls.data !== null && calls.data.length === 0 ? <p class="empty">{t('agents.noCalls')}</p> : null}
      {calls.data !== null && calls.data.length > 0 ? (
        <TableScroll labelledBy="journal-title">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('agents.when')}</th>
                <th scope="col">{t('agents.token')}</th>
                <th scope="col">{t('agents.operation')}</th>
                <th scope="col">{t('agents.surface')}</th>
                <th scope="col">{t('agents.result')}</th>
                <th scope="col">{t('agents.duration')}</th>
                <th scope="col">{t('agents.client')}</th>
                <th scope="col">{t('changes.openChange')}</th>
              </tr>
            </thead>
            <tbody>
              {calls.data.map((call) => (
                <tr key={call.id}>
                  <td>{formatDateTime(call.at, user.timezone)}</td>
                  <td>{tokenName(call) ?? <code>{call.token_id}</code>}</td>
                  <td id={`call-${call.id}`}>
                    <code>{call.operation}</code>
                  </td>
                  <td>{call.surface.toUpperCase()}</td>
                  <td>
                    <span class={call.status < 400 ? 'badge' : 'badge red'}>{call.status}</span>
                  </td>
                  <td>{call.duration_ms} ms</td>
                  <td>{call.client ?? '—'}</td>
                  <td>
                    <ChangeCell
                      call={call}
                      undone={call.change_id != null && undone.has(call.change_id)}
                      onUndo={() => setUndoing(call)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {undoing !== null && undoing.change_id != null ? (
        <UndoDialog
          title={t('changes.undoTitle')}
          text={t('changes.undoCall', {
            operation: undoing.operation,
            who: tokenName(undoing) ?? undoing.token_id,
            when: formatDateTime(undoing.at, user.timezone),
          })}
          run={(force) => changes.revert(undoing.change_id!, force)}
          describeLater={(details) => describeLaterChanges(t, details)}
          onDone={(result) => {
            setUndone((old) => new Set(old).add(undoing.change_id!));
            setOutcome(undoneText(t, result));
          }}
          onClose={() => setUndoing(null)}
        />
      ) : null}
    </section>
  );
}

/** A call that wrote something: a link to its change (in its tree's history) and `Undo`. */
function ChangeCell({ call, undone, onUndo }: { call: AgentCall; undone: boolean; onUndo(): void }) {
  const t = useT();
  if (call.change_id == null) return <>—</>;
  return (
    <span class="row">
      <a href={`/changes/${encodeURIComponent(call.change_id)}`} aria-describedby={`call-${call.id}`}>
        {t('changes.openChange')}
      </a>
      {undone ? (
        <span class="badge grey">{t('changes.undone')}</span>
      ) : (
        <button type="button" class="btn small" aria-describedby={`call-${call.id}`} onClick={onUndo}>
          {t('changes.undo')}
        </button>
      )}
    </span>
  );
}
