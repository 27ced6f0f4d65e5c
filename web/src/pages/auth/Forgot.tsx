import { useState } from 'preact/hooks';
import { auth } from '../../api/endpoints';
import { useT } from '../../i18n/use-t';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { usePageTitle } from '../../components/usePageTitle';
import { EmailField } from './fields';

/** The answer is the same whether or not the account exists (CONTRACT §12); we only say whether mail can go out. */
export function Forgot() {
  const t = useT();
  usePageTitle(t('auth.forgotTitle'));
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<'sent' | 'not_configured' | null>(null);
  const { busy, error, submit } = useSubmit(async () => {
    setSent((await auth.requestReset(email)).delivery);
  });

  return (
    <section class="card auth-card">
      <h1>{t('auth.forgotTitle')}</h1>
      <p class="muted">{t('auth.forgotLead')}</p>
      {sent === null ? (
        <form class="stack" onSubmit={submit}>
          <EmailField value={email} onInput={setEmail} />
          <ErrorNote error={error} />
          <button class="btn primary" disabled={busy}>
            {t('auth.sendLink')}
          </button>
        </form>
      ) : (
        <p class="note ok" role="status">
          {sent === 'sent' ? t('auth.linkSent', { email }) : t('auth.mailNotConfigured')}
        </p>
      )}
      <p class="foot">
        <a href="/signin">{t('auth.backToSignIn')}</a>
      </p>
    </section>
  );
}
