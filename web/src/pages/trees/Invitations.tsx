import { useState } from 'preact/hooks';
import { invitations } from '../../api/endpoints';
import type { Invitation } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';

/**
 * The signed-in user's pending invitations, above their trees. Accepting calls `onAccepted` so the
 * list of trees reloads with the new shared tree in it; nothing shows while there are none.
 */
export function Invitations({ onAccepted }: { onAccepted(): void }) {
  const t = useT();
  const list = useLoad(() => invitations.list(), []);
  const [joined, setJoined] = useState<string | null>(null);
  // One answer at a time: the section has one error line, and a second answer would clear the first's.
  const {
    busy,
    error,
    run: answer,
  } = useSubmit(async (invitation: Invitation, accept: boolean) => {
    await (accept ? invitations.accept(invitation.id) : invitations.decline(invitation.id));
    list.setData((old) => (old ?? []).filter((x) => x.id !== invitation.id));
    if (accept) {
      setJoined(t('invitations.accepted', { tree: invitation.tree_name }));
      onAccepted();
    }
  });

  const items = list.data ?? [];
  if (items.length === 0 && list.error === null && error === null && joined === null) return null;
  return (
    <section class="card invitations" aria-labelledby="invitations-title">
      <h2 id="invitations-title">{t('invitations.title')}</h2>
      <ErrorNote error={list.error ?? error} onRetry={list.error !== null ? list.reload : undefined} />
      {joined !== null ? (
        <p class="note ok" role="status">
          {joined}
        </p>
      ) : null}
      <ul class="invitation-list">
        {items.map((inv) => (
          <li key={inv.id} class="invitation">
            <span id={`invitation-${inv.id}`}>
              {t('invitations.text', {
                tree: inv.tree_name,
                role: t(`sharing.roles.${inv.role}`),
                by: inv.invited_by_name,
              })}
            </span>
            <div class="row">
              <button
                type="button"
                class="btn small primary"
                disabled={busy}
                aria-describedby={`invitation-${inv.id}`}
                onClick={() => void answer(inv, true)}
              >
                {t('invitations.accept')}
              </button>
              <button
                type="button"
                class="btn small ghost"
                disabled={busy}
                aria-describedby={`invitation-${inv.id}`}
                onClick={() => void answer(inv, false)}
              >
                {t('invitations.decline')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
