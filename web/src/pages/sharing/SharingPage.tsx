import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { members, trees } from '../../api/endpoints';
import type { Member } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { usePageTitle } from '../../components/usePageTitle';
import { InviteForm } from './InviteForm';
import { MembersTable } from './MembersTable';

/** A tree's sharing page (owner only): who is in, with which role and until when; invite, change, revoke. */
export function SharingPage() {
  const t = useT();
  const user = useUser();
  const id = useRoute().params.id ?? '';
  const page = useLoad(async () => {
    const [snapshot, team] = await Promise.all([trees.get(id), members.list(id)]);
    return { tree: snapshot.tree, items: team.items };
  }, [id]);
  // Sharing follows the owner's effective plan; the API's 403 plan_limit_reached also turns this on.
  const [needsGrove, setNeedsGrove] = useState(false);
  const tree = page.data?.tree ?? null;
  usePageTitle(tree !== null ? t('sharing.title', { name: tree.name }) : t('sharing.link'));
  const upsert = (member: Member) =>
    page.setData((d) =>
      d === null
        ? d
        : {
            ...d,
            items: d.items.some((x) => x.id === member.id)
              ? d.items.map((x) => (x.id === member.id ? member : x))
              : [...d.items, member],
          },
    );

  return (
    <section class="page">
      <a href={tree !== null ? `/trees/${id}` : '/trees'} class="back">
        ← {tree !== null ? tree.name : t('tree.back')}
      </a>
      {page.loading && page.data === null ? <p class="muted">{t('common.loading')}</p> : null}
      <ErrorNote error={page.error} onRetry={page.reload} />
      {page.data !== null && tree !== null ? (
        <>
          <div class="page-head">
            <div>
              <h1>{t('sharing.title', { name: tree.name })}</h1>
              <p class="lead">{t('sharing.lead')}</p>
            </div>
          </div>
          {tree.access !== 'owner' ? (
            <p class="note info" role="status">
              {t('sharing.ownerOnly')}
            </p>
          ) : (
            <div class="stack">
              {needsGrove || user.effective_plan !== 'grove' ? (
                <p class="note info" role="status">
                  {t('sharing.needsGrove')} <a href="/billing">{t('sharing.seeBilling')}</a>
                </p>
              ) : (
                <div class="card">
                  <InviteForm treeId={id} onInvited={upsert} onNeedsGrove={() => setNeedsGrove(true)} />
                </div>
              )}
              <div class="card">
                <h2 id="members-title">{t('sharing.members')}</h2>
                <MembersTable items={page.data.items} onChanged={upsert} />
              </div>
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}
