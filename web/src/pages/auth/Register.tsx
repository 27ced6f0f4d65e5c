import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { auth } from '../../api/endpoints';
import { useSession } from '../../session';
import { useT } from '../../i18n/use-t';
import type { Language } from '../../i18n';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { PROFILE_NAME_MAX } from '../../api/bounds';
import { usePageTitle } from '../../components/usePageTitle';
import { EmailField, PasswordField } from './fields';
import { Field } from '../../components/Field';
import { keepNext } from '../../components/Guards';

/** A new account starts in the language the page is shown in and in the browser's time zone. */
export function Register() {
  const t = useT();
  const { setUser, language } = useSession();
  const { query } = useLocation();
  usePageTitle(t('auth.createAccount'));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(
    async () => {
      const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      setUser(await auth.register({ email, password, name, language: language as Language, timezone }));
    },
    { leaves: true },
  );

  return (
    <section class="card auth-card">
      <h1>{t('auth.registerTitle')}</h1>
      <p class="muted">{t('auth.registerLead')}</p>
      <form class="stack" onSubmit={submit}>
        <Field label={t('fields.name')}>
          {(id) => (
            <input
              id={id}
              name="name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              maxLength={PROFILE_NAME_MAX}
              autoComplete="name"
            />
          )}
        </Field>
        <EmailField value={email} onInput={setEmail} />
        <PasswordField value={password} onInput={setPassword} autoComplete="new-password" />
        <ErrorNote error={error} />
        <button class="btn primary" disabled={busy}>
          {t('auth.createAccount')}
        </button>
      </form>
      <p class="foot">
        {t('auth.haveAccount')} <a href={keepNext('/signin', query.next)}>{t('auth.signIn')}</a>
      </p>
    </section>
  );
}
