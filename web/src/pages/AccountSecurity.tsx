import { useState } from 'preact/hooks';
import { auth } from '../api/endpoints';
import { ApiError, reportUnauthorized } from '../api/client';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../api/bounds';
import { useSession, useUser } from '../session';
import { useT } from '../i18n/use-t';
import { t as translate } from '../i18n';
import { Confirm } from '../components/Confirm';
import { Field } from '../components/Field';

type Asking = 'password' | 'email' | 'delete' | null;

/**
 * A failure of the account's own changes in the page's words: a 401 that names the password field
 * is a wrong password (the session lives on); one without is a session that ended.
 */
function accountError(conflict: 'account.emailTaken' | 'account.subscriptionLive' | null) {
  return (error: unknown): never => {
    if (error instanceof ApiError) {
      if (error.status === 401 && error.details.length > 0) throw new Error(translate('account.wrongPassword'));
      if (error.status === 401) reportUnauthorized();
      if (error.status === 409 && conflict !== null) throw new Error(translate(conflict));
    }
    throw error;
  };
}

/** Change the password, change the email, delete the account (CONTRACT §18): each asks first, naming what happens. */
export function AccountSecurity() {
  const t = useT();
  const user = useUser();
  const { setUser } = useSession();
  const [asking, setAsking] = useState<Asking>(null);
  const [done, setDone] = useState<string | null>(null);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [email, setEmail] = useState('');
  const [emailPassword, setEmailPassword] = useState('');
  const [deletePassword, setDeletePassword] = useState('');

  /** Each form only asks; the browser has checked its fields (required, lengths, email). */
  const ask = (what: Exclude<Asking, null>) => (event: Event) => {
    event.preventDefault();
    setDone(null);
    setAsking(what);
  };

  return (
    <>
      {done !== null ? (
        <p class="note ok" role="status">
          {done}
        </p>
      ) : null}
      <form class="card stack" onSubmit={ask('password')} aria-labelledby="password-title">
        <h2 id="password-title">{t('account.passwordTitle')}</h2>
        <div class="grid-2">
          <Field label={t('account.currentPassword')}>
            {(id) => (
              <input
                id={id}
                type="password"
                value={current}
                onInput={(e) => setCurrent(e.currentTarget.value)}
                required
                maxLength={PASSWORD_MAX}
                autoComplete="current-password"
              />
            )}
          </Field>
          <Field label={t('fields.newPassword')}>
            {(id) => (
              <input
                id={id}
                type="password"
                value={next}
                onInput={(e) => setNext(e.currentTarget.value)}
                required
                minLength={PASSWORD_MIN}
                maxLength={PASSWORD_MAX}
                autoComplete="new-password"
              />
            )}
          </Field>
        </div>
        <p class="muted small-text">{t('auth.passwordHint')}</p>
        <div class="actions">
          <button class="btn">{t('account.changePassword')}</button>
        </div>
      </form>

      <form class="card stack" onSubmit={ask('email')} aria-labelledby="email-title">
        <h2 id="email-title">{t('account.emailTitle')}</h2>
        <p class="muted">{t('account.emailNow', { email: user.email })}</p>
        <div class="grid-2">
          <Field label={t('account.newEmail')}>
            {(id) => (
              <input
                id={id}
                type="email"
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
                required
                maxLength={EMAIL_MAX}
                autoComplete="email"
              />
            )}
          </Field>
          <Field label={t('fields.password')}>
            {(id) => (
              <input
                id={id}
                type="password"
                value={emailPassword}
                onInput={(e) => setEmailPassword(e.currentTarget.value)}
                required
                maxLength={PASSWORD_MAX}
                autoComplete="current-password"
              />
            )}
          </Field>
        </div>
        <div class="actions">
          <button class="btn">{t('account.changeEmail')}</button>
        </div>
      </form>

      <form class="card stack" onSubmit={ask('delete')} aria-labelledby="delete-title">
        <h2 id="delete-title">{t('account.deleteTitle')}</h2>
        <p>{t('account.deleteLead')}</p>
        <Field label={t('fields.password')}>
          {(id) => (
            <input
              id={id}
              type="password"
              value={deletePassword}
              onInput={(e) => setDeletePassword(e.currentTarget.value)}
              required
              maxLength={PASSWORD_MAX}
              autoComplete="current-password"
            />
          )}
        </Field>
        <div class="actions">
          <button class="btn danger">{t('account.deleteAccount')}</button>
        </div>
      </form>

      {asking === 'password' ? (
        <Confirm
          title={t('account.passwordConfirmTitle')}
          text={t('account.passwordConfirmText')}
          confirmLabel={t('account.changePassword')}
          onClose={() => setAsking(null)}
          onConfirm={async () => {
            const changed = await auth.changePassword(current, next).catch(accountError(null));
            if (changed !== null) setUser(changed);
            setCurrent('');
            setNext('');
            setDone(t('account.passwordChanged'));
          }}
        />
      ) : null}
      {asking === 'email' ? (
        <Confirm
          title={t('account.emailConfirmTitle')}
          text={t('account.emailConfirmText', { email: email.trim() })}
          confirmLabel={t('account.changeEmail')}
          onClose={() => setAsking(null)}
          onConfirm={async () => {
            const changed = await auth
              .changeEmail(email.trim(), emailPassword)
              .catch(accountError('account.emailTaken'));
            setUser(changed);
            setEmail('');
            setEmailPassword('');
            setDone(t('account.emailChanged', { email: changed.email }));
          }}
        />
      ) : null}
      {asking === 'delete' ? (
        <Confirm
          title={t('account.deleteConfirmTitle', { email: user.email })}
          text={t('account.deleteConfirmText')}
          confirmLabel={t('account.deleteForever')}
          onClose={() => setAsking(null)}
          onConfirm={async () => {
            await auth.deleteAccount(deletePassword).catch(accountError('account.subscriptionLive'));
            // Signed out for good: the signed-in page's guard takes the person to sign in.
            setUser(null);
          }}
        />
      ) : null}
    </>
  );
}
