import { useState } from 'preact/hooks';
import { auth } from '../api/endpoints';
import { useSession, useUser } from '../session';
import { useT } from '../i18n/use-t';
import { Modal } from './Modal';
import { ErrorNote } from './ErrorNote';
import { useSubmit } from './useSubmit';
import { Field } from './Field';
import { PASSWORD_MIN } from '../api/bounds';

/**
 * Shown over the page when a request finds the session gone. The page below stays mounted, so
 * whatever the person typed is still there after they sign in again and press Save once more.
 */
export function SessionExpiredDialog() {
  const user = useUser();
  const { setUser } = useSession();
  const t = useT();
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    // The old session is gone with its CSRF value: open a fresh one (and its CSRF) before signing in.
    await auth.me();
    setUser(await auth.login(user.email, password));
  });
  return (
    <Modal title={t('session.expiredTitle')} onClose={() => setUser(null)}>
      <p class="muted">{t('session.expiredText')}</p>
      <form onSubmit={submit} class="stack">
        <Field label={t('fields.email')}>
          {(id) => <input id={id} type="email" value={user.email} readOnly autoComplete="username" />}
        </Field>
        <Field label={t('fields.password')}>
          {(id) => (
            <input
              id={id}
              type="password"
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
              required
              minLength={PASSWORD_MIN}
              autoComplete="current-password"
            />
          )}
        </Field>
        <ErrorNote error={error} />
        <div class="actions">
          <button class="btn primary" disabled={busy}>
            {t('auth.signIn')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
