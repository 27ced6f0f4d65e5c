import { useState } from 'preact/hooks';
import { auth } from '../api/endpoints';
import { ApiError } from '../api/client';
import type { User } from '../api/types';
import { useSession } from '../session';
import { useT } from '../i18n/use-t';
import { ErrorNote } from './ErrorNote';
import { useSubmit } from './useSubmit';

/**
 * Asks a signed-in person whose email is not verified to verify it: trees shared with that
 * address reach the account only then (CONTRACT §19). Gone once `email_verified` is true.
 * A named section, not an <aside>: the tree page's task panel is the page's one complementary
 * landmark, and its label and button avoid the words of the app's fields and buttons, which
 * people and tests find by name.
 */
export function VerifyBanner({ user }: { user: User }) {
  const t = useT();
  const { setUser } = useSession();
  const [delivery, setDelivery] = useState<'sent' | 'not_configured' | null>(null);
  const {
    busy,
    error,
    run: send,
  } = useSubmit(async () => {
    try {
      setDelivery((await auth.requestVerification()).delivery);
    } catch (e) {
      // 409: verified meanwhile (another tab, the operator); the fresh record hides this banner.
      if (e instanceof ApiError && e.status === 409) setUser(await auth.me());
      else throw e;
    }
  });

  return (
    <section class="verify-banner" aria-label={t('verify.bannerLabel')}>
      <p>{t('verify.banner', { email: user.email })}</p>
      {delivery === null ? (
        <button type="button" class="btn small" disabled={busy} onClick={() => void send()}>
          {t('verify.send')}
        </button>
      ) : (
        <p role="status">{delivery === 'sent' ? t('verify.sent', { email: user.email }) : t('verify.notConfigured')}</p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
