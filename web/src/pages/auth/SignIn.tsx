import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { auth } from '../../api/endpoints';
import { ApiError } from '../../api/client';
import { useSession } from '../../session';
import { useT } from '../../i18n/use-t';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { usePageTitle } from '../../components/usePageTitle';
import { EmailField, PasswordField } from './fields';
import { keepNext } from '../../components/Guards';

export function SignIn() {
  const t = useT();
  const { setUser } = useSession();
  const { query } = useLocation();
  usePageTitle(t('auth.signIn'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(
    async () => {
      setUser(await auth.login(email, password)); // the SignedOut guard then moves on
    },
    {
      leaves: true,
      errorText: (e) => (e instanceof ApiError && e.status === 401 ? t('auth.wrongCredentials') : messageOf(e)),
    },
  );

  return (
    <section class="card auth-card">
      <h1>{t('auth.signInTitle')}</h1>
      <p class="muted">{t('auth.signInLead')}</p>
      <form class="stack" onSubmit={submit}>
        <EmailField value={email} onInput={setEmail} />
        <PasswordField value={password} onInput={setPassword} autoComplete="current-password" />
        <ErrorNote error={error} />
        <button class="btn primary" disabled={busy}>
          {t('auth.signIn')}
        </button>
      </form>
      <p class="foot">
        <a href="/forgot">{t('auth.forgot')}</a>
      </p>
      <p class="foot">
        {t('auth.noAccount')} <a href={keepNext('/register', query.next)}>{t('auth.createAccount')}</a>
      </p>
    </section>
  );
}
