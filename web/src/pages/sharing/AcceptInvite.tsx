import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { invitations } from '../../api/endpoints';
import { ApiError } from '../../api/client';
import { useUser } from '../../session';
import { useT } from '../../i18n/use-t';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { usePageTitle } from '../../components/usePageTitle';

/**
 * `/invite?token=…&id=…`, the one-time link of an invitation (CONTRACT §19), behind sign-in.
 * Accepting is a click, never automatic: the link may have been opened by a mail scanner or the
 * wrong account. Token and id are read once into memory and leave the address bar.
 */
export function AcceptInvite() {
  const t = useT();
  const user = useUser();
  const { query } = useLocation();
  usePageTitle(t('invite.title'));
  const [link] = useState(() => ({ token: query.token ?? '', id: query.id ?? '' }));
  const [treeId, setTreeId] = useState<string | null>(null);

  useEffect(() => {
    if (query.token !== undefined || query.id !== undefined) history.replaceState(null, '', location.pathname);
  }, []);

  const {
    busy,
    error,
    run: accept,
  } = useSubmit(
    async () => {
      setTreeId((await invitations.accept(link.id, link.token)).tree_id);
    },
    {
      errorText(e) {
        const status = e instanceof ApiError ? e.status : 0;
        return status === 404 ? t('invite.gone') : status === 409 ? t('invite.conflict') : messageOf(e);
      },
    },
  );

  return (
    <section class="card auth-card">
      <h1>{t('invite.title')}</h1>
      {link.token === '' || link.id === '' ? (
        <p class="note warn" role="alert">
          {t('invite.missing')}
        </p>
      ) : treeId !== null ? (
        <>
          <p class="note ok" role="status">
            {t('invite.joined')}
          </p>
          <p>
            <a class="btn primary" href={`/trees/${encodeURIComponent(treeId)}`}>
              {t('invite.open')}
            </a>
          </p>
        </>
      ) : (
        <div class="stack">
          <p class="muted">{t('invite.lead', { email: user.email })}</p>
          <ErrorNote error={error} />
          <button type="button" class="btn primary" disabled={busy} onClick={() => void accept()}>
            {t('invite.accept')}
          </button>
        </div>
      )}
      <p class="foot">
        <a href="/trees">{t('verify.toTrees')}</a>
      </p>
    </section>
  );
}
