import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { auth } from '../../api/endpoints';
import { ApiError } from '../../api/client';
import { useSession, useUser } from '../../session';
import { useT } from '../../i18n/use-t';
import { messageOf } from '../../components/ErrorNote';
import { usePageTitle } from '../../components/usePageTitle';

type Outcome = { kind: 'working' | 'done' | 'missing' } | { kind: 'failed'; message: string };

/**
 * `/verify?token=…` from the verification mail, behind sign-in (the token verifies the account
 * it was mailed to). It completes on arrival; the token then leaves the address bar.
 */
export function Verify() {
  const t = useT();
  const user = useUser();
  const { setUser } = useSession();
  const { query } = useLocation();
  usePageTitle(t('verify.title'));
  const [token] = useState(() => query.token ?? '');
  const [outcome, setOutcome] = useState<Outcome>({ kind: token === '' ? 'missing' : 'working' });
  const started = useRef(false);

  useEffect(() => {
    if (query.token !== undefined) history.replaceState(null, '', location.pathname);
    if (token === '' || started.current) return;
    started.current = true;
    auth.completeVerification(token).then(
      (verified) => {
        setUser(verified);
        setOutcome({ kind: 'done' });
      },
      (e: unknown) =>
        setOutcome({
          kind: 'failed',
          message: e instanceof ApiError && e.status === 400 ? t('verify.failed') : messageOf(e),
        }),
    );
  }, []);

  return (
    <section class="card auth-card">
      <h1>{t('verify.title')}</h1>
      {outcome.kind === 'working' ? (
        <p class="muted" role="status">
          {t('verify.working')}
        </p>
      ) : null}
      {outcome.kind === 'done' ? (
        <p class="note ok" role="status">
          {t('verify.done', { email: user.email })}
        </p>
      ) : null}
      {outcome.kind === 'missing' ? (
        <p class="note warn" role="alert">
          {t('verify.missing')}
        </p>
      ) : null}
      {outcome.kind === 'failed' ? (
        <p class={user.email_verified ? 'note ok' : 'note error'} role="alert">
          {user.email_verified ? t('verify.already') : outcome.message}
        </p>
      ) : null}
      <p class="foot">
        <a href="/trees">{t('verify.toTrees')}</a>
      </p>
    </section>
  );
}
