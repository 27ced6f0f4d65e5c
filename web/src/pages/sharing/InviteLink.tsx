import { useT } from '../../i18n/use-t';
import { CopyButton } from '../../components/CopyButton';

/**
 * A new invitation's one-time link, shown to the owner once (the server keeps only its hash).
 * Whoever opens it signed in may join, so the owner is told to pass it to the invitee only.
 */
export function InviteLink({ email, url }: { email: string; url: string }) {
  const t = useT();
  return (
    <div class="stack shown-once" role="status">
      <strong>{t('sharing.invited', { email })}</strong>
      <span>{t('sharing.linkLabel')}</span>
      <div class="secret">
        <code data-invite-url>{url}</code>
        <CopyButton value={url} />
      </div>
      <p class="note warn">{t('sharing.linkWarning', { email })}</p>
    </div>
  );
}
