import { agentCalls } from '../../api/endpoints';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { TableScroll } from '../../components/TableScroll';

/** The agent call journal: the latest 100 calls, newest first, refreshed on demand. */
export function Journal() {
  const t = useT();
  const user = useUser();
  const calls = useLoad(() => agentCalls.latest(), []);
  return (
    <section class="card" aria-labelledby="journal-title">
      <div class="spread">
        <h2 id="journal-title">{t('agents.journal')}</h2>
        <button type="button" class="btn small" onClick={() => void calls.reload()} disabled={calls.loading}>
          {t('common.refresh')}
        </button>
      </div>
      <p class="section-lead">{t('agents.journalLead')}</p>
      <ErrorNote error={calls.error} onRetry={calls.reload} />
      {calls.data !== null && calls.data.length === 0 ? <p class="empty">{t('agents.noCalls')}</p> : null}
      {calls.data !== null && calls.data.length > 0 ? (
        <TableScroll labelledBy="journal-title">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('agents.when')}</th>
                <th scope="col">{t('agents.operation')}</th>
                <th scope="col">{t('agents.surface')}</th>
                <th scope="col">{t('agents.result')}</th>
                <th scope="col">{t('agents.duration')}</th>
                <th scope="col">{t('agents.client')}</th>
              </tr>
            </thead>
            <tbody>
              {calls.data.map((call) => (
                <tr key={call.id}>
                  <td>{formatDateTime(call.at, user.timezone)}</td>
                  <td>
                    <code>{call.operation}</code>
                  </td>
                  <td>{call.surface.toUpperCase()}</td>
                  <td>
                    <span class={call.status < 400 ? 'badge' : 'badge red'}>{call.status}</span>
                  </td>
                  <td>{call.duration_ms} ms</td>
                  <td>{call.client ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </section>
  );
}
