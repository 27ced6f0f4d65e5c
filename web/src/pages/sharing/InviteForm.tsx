import { useState } from 'preact/hooks';
import { members } from '../../api/endpoints';
import { ApiError } from '../../api/client';
import { MEMBER_ROLES, type Member, type MemberRole } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { zonedToIso } from '../../i18n/zoned';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { EMAIL_MAX } from '../../api/bounds';
import { Field } from '../../components/Field';
import { InviteLink } from './InviteLink';

/** True for the API's answer to sharing without Grove: 403 plan_limit_reached, details [{limit: "sharing"}]. */
export function isSharingLimit(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.code === 'plan_limit_reached' &&
    error.details.some((d) => (d as { limit?: unknown } | null)?.limit === 'sharing')
  );
}

/** Invite by email as viewer or editor, with an optional end of access in the owner's own time zone; then the link, once. */
export function InviteForm({
  treeId,
  onInvited,
  onNeedsGrove,
}: {
  treeId: string;
  onInvited(member: Member): void;
  onNeedsGrove(): void;
}) {
  const t = useT();
  const user = useUser();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('viewer');
  const [expires, setExpires] = useState('');
  const [shown, setShown] = useState<{ email: string; url: string } | null>(null);
  const { busy, error, submit } = useSubmit(
    async () => {
      setShown(null);
      const { member, invite_url } = await members.invite(treeId, {
        email: email.trim(),
        role,
        ...(expires !== '' ? { expires_at: zonedToIso(expires, user.timezone) } : {}),
      });
      onInvited(member);
      setShown({ email: member.email, url: invite_url });
      setEmail('');
      setExpires('');
    },
    {
      errorText(e) {
        if (!isSharingLimit(e)) return messageOf(e);
        onNeedsGrove(); // sharing needs Grove: the page offers the upgrade instead of an error line
        return null;
      },
    },
  );

  return (
    <form class="stack" onSubmit={submit}>
      <h2>{t('sharing.inviteTitle')}</h2>
      <div class="grid-3">
        <Field label={t('fields.email')}>
          {(id) => (
            <input
              id={id}
              type="email"
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
              required
              maxLength={EMAIL_MAX}
              autocomplete="off"
            />
          )}
        </Field>
        <Field label={t('sharing.role')}>
          {(id) => (
            <select id={id} value={role} onChange={(e) => setRole(e.currentTarget.value as MemberRole)}>
              {MEMBER_ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`sharing.roles.${r}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('sharing.expiresOptional')}>
          {(id) => (
            <input id={id} type="datetime-local" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
          )}
        </Field>
      </div>
      <ErrorNote error={error} />
      {shown !== null ? <InviteLink email={shown.email} url={shown.url} /> : null}
      <div class="actions">
        <button class="btn primary" disabled={busy}>
          {t('sharing.invite')}
        </button>
      </div>
    </form>
  );
}
