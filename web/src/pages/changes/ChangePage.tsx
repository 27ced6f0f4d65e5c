import { useEffect } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { history, trees } from '../../api/endpoints';
import { useT } from '../../i18n/use-t';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { usePageTitle } from '../../components/usePageTitle';

/** Trees asked at once while looking for a change. */
const AT_ONCE = 4;

/**
 * The tree a change belongs to: the first of the person's trees whose history holds it (a journal
 * record names its change, not its tree). Null when none does (purged, or a tree no longer seen).
 */
async function treeOf(changeId: string): Promise<string | null> {
  const list = await trees.list();
  for (let i = 0; i < list.length; i += AT_ONCE) {
    const hits = await Promise.all(
      list.slice(i, i + AT_ONCE).map((tree) =>
        history.page(tree.id, undefined, { change_id: changeId }).then(
          (page) => (page.items.length > 0 ? tree.id : null),
          () => null,
        ),
      ),
    );
    const hit = hits.find((x) => x !== null);
    if (hit !== undefined) return hit;
  }
  return null;
}

/** `/changes/{id}`, linked from the agent call journal: opens the change in its tree's History tab. */
export function ChangePage() {
  const t = useT();
  const id = useRoute().params.id ?? '';
  const { route } = useLocation();
  usePageTitle(t('changes.openChange'));
  const found = useLoad(() => treeOf(id), [id]);
  useEffect(() => {
    if (found.data !== null) route(`/trees/${encodeURIComponent(found.data)}?change=${encodeURIComponent(id)}`, true);
  }, [found.data, id]);
  return (
    <section class="page">
      <a href="/agents" class="back">
        ← {t('nav.agents')}
      </a>
      <h1>{t('changes.openChange')}</h1>
      {found.loading ? <p class="muted">{t('changes.findingChange')}</p> : null}
      {!found.loading && found.data === null && found.error === null ? <p>{t('changes.notFound')}</p> : null}
      <ErrorNote error={found.error} onRetry={found.reload} />
    </section>
  );
}
