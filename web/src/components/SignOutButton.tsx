import { useState } from 'preact/hooks';
import { auth } from '../api/endpoints';
import { useSession } from '../session';
import { useT } from '../i18n/use-t';

export function SignOutButton() {
  const { setUser } = useSession();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function signOut() {
    setBusy(true);
    try {
      await auth.logout();
      // The signed-in page's guard sends the person to sign in (and back here after).
      setUser(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button type="button" class="btn ghost small" onClick={signOut} disabled={busy}>{t('auth.signOut')}</button>
      {error !== null ? <span role="alert" class="inline-error">{error}</span> : null}
    </>
  );
}
