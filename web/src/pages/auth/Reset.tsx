import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { auth } from '../../api/endpoints';
import { useSession } from '../../session';
import { useT } from '../../i18n/use-t';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { usePageTitle } from '../../components/usePageTitle';
import { PasswordField } from './fields';

/**
 * `/reset?token=…` from the mail. The token is read once into memory and then removed from the
 * address bar, so it stays out of history and of the Referer of anything loaded later.
 */
export function Reset() {
  const t = useT();
  const { setUser } = useSession();
  const { query, route } = useLocation();
  usePageTitle(t('auth.resetTitle'));
  const [token] = useState(() => query.token ?? '');
  const [password, setPassword] = useState('');

  useEffect(() => {
    if (query.token !== undefined) history.replaceState(null, '', location.pathname);
  }, [query.token]);

  const { busy, error, submit } = useSubmit(
    async () => {
      setUser(await auth.completeReset(token, password));
      route('/trees');
    },
    { leaves: true },
  );

  return (
    <section class="card auth-card">
      <h1>{t('auth.resetTitle')}</h1>
      {token === '' ? (
        <p class="note warn" role="alert">
          {t('auth.resetMissing')}
        </p>
      ) : (
        <>
          <p class="muted">{t('auth.resetLead')}</p>
          <form class="stack" onSubmit={submit}>
            <PasswordField
              value={password}
              onInput={setPassword}
              autoComplete="new-password"
              label={t('fields.newPassword')}
            />
            <ErrorNote error={error} />
            <button class="btn primary" disabled={busy}>
              {t('auth.setPassword')}
            </button>
          </form>
        </>
      )}
      <p class="foot">
        <a href="/forgot">{t('auth.forgotTitle')}</a> · <a href="/signin">{t('auth.backToSignIn')}</a>
      </p>
    </section>
  );
}
