import { auth } from '../api/endpoints';
import { useSession } from '../session';
import { useT } from '../i18n/use-t';
import { useSubmit } from './useSubmit';

export function SignOutButton() {
  const { setUser } = useSession();
  const t = useT();
  const {
    busy,
    error,
    run: signOut,
  } = useSubmit(async () => {
    await auth.logout();
    // The signed-in page's guard sends the person to sign in (and back here after).
    setUser(null);
  });
  return (
    <>
      <button type="button" class="btn ghost small" onClick={() => void signOut()} disabled={busy}>
        {t('auth.signOut')}
      </button>
      {error !== null ? (
        <span role="alert" class="inline-error">
          {error}
        </span>
      ) : null}
    </>
  );
}
