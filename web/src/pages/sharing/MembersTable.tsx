import { useState } from 'preact/hooks';
import { members } from '../../api/endpoints';
import { MEMBER_ROLES, type Member, type MemberRole } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { TableScroll } from '../../components/TableScroll';
import { Confirm } from '../../components/Confirm';
import { memberLabel } from '../tree/people';

const badge: Record<Member['status'], string> = {
  active: 'badge',
  pending: 'badge amber',
  revoked: 'badge grey',
  expired: 'badge grey',
};

/** Everyone ever invited, by name (the invited email beside it, or alone until they name themselves): role (changeable while the membership lives), status, end of access, and Revoke. */
export function MembersTable({ items, onChanged }: { items: Member[]; onChanged(member: Member): void }) {
  const t = useT();
  const user = useUser();
  const [revoking, setRevoking] = useState<Member | null>(null);
  const { error, run: changeRole } = useSubmit(async (member: Member, role: MemberRole) => {
    onChanged(await members.update(member.id, { role }));
  });

  if (items.length === 0) return <p class="empty">{t('sharing.noMembers')}</p>;
  return (
    <>
      <ErrorNote error={error} />
      <TableScroll labelledBy="members-title">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('sharing.person')}</th>
              <th scope="col">{t('sharing.role')}</th>
              <th scope="col">{t('sharing.status')}</th>
              <th scope="col">{t('sharing.expires')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('sharing.revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((m) => {
              const live = m.status === 'active' || m.status === 'pending';
              return (
                <tr key={m.id}>
                  <td id={`member-${m.id}`}>
                    {memberLabel(m)}
                    {memberLabel(m) !== m.email ? <span class="muted small-text"> · {m.email}</span> : null}
                  </td>
                  <td>
                    {live ? (
                      <select
                        aria-label={t('sharing.roleOf', { email: m.email })}
                        value={m.role}
                        onChange={(e) => void changeRole(m, e.currentTarget.value as MemberRole)}
                      >
                        {MEMBER_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {t(`sharing.roles.${r}`)}
                          </option>
                        ))}
                      </select>
                    ) : (
                      t(`sharing.roles.${m.role}`)
                    )}
                  </td>
                  <td>
                    <span class={badge[m.status]}>{t(`sharing.statuses.${m.status}`)}</span>
                  </td>
                  <td>{m.expires_at !== null ? formatDateTime(m.expires_at, user.timezone) : t('sharing.noExpiry')}</td>
                  <td>
                    {live ? (
                      <button
                        type="button"
                        class="btn small danger"
                        aria-describedby={`member-${m.id}`}
                        onClick={() => setRevoking(m)}
                      >
                        {t('sharing.revoke')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      {revoking !== null ? (
        <Confirm
          title={t('sharing.revokeTitle')}
          text={t('sharing.revokeText', { email: revoking.email })}
          confirmLabel={t('sharing.revoke')}
          onConfirm={async () => onChanged(await members.revoke(revoking.id))}
          onClose={() => setRevoking(null)}
        />
      ) : null}
    </>
  );
}
