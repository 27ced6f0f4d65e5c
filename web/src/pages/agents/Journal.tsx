import { agentCalls, oauthConnections, tokens } from '../../api/endpoints';
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
  // Which token made a call, by its name: personal tokens (pat_) and OAuth grants (the journal's token_id for OAuth).
  const tokenNames = useLoad(async () => {
    const [own, granted] = await Promise.all([tokens.list().catch(() => []), oauthConnections.list().catch(() => [])]);
    return new Map([...own.map((x) => [x.id, x.name] as const), ...granted.map((x) => [x.id, x.client_name] as const)]);
  }, []);
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
              </tr>
            </thead>
            <tbody>
              {calls.data.map((call) => (
                <tr key={call.id}>
                  <td>{formatDateTime(call.at, user.timezone)}</td>
                  <td>{tokenNames.data?.get(call.token_id) ?? <code>{call.token_id}</code>}</td>
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
