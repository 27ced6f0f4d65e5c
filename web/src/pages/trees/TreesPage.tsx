import { useState } from 'preact/hooks';
import { trees } from '../../api/endpoints';
import type { Tree, TreeListItem } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatCount, formatDateTime } from '../../i18n/format';
import { TreeThumbnail } from '../../components/drawing';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { Confirm } from '../../components/Confirm';
import { usePageTitle } from '../../components/usePageTitle';
import { ItemDialog } from '../tree/ItemDialog';
import { Invitations } from './Invitations';

type Editing = { kind: 'create' } | { kind: 'edit'; tree: Tree } | { kind: 'delete'; tree: Tree } | null;

export function TreesPage() {
  const t = useT();
  const user = useUser();
  usePageTitle(t('nav.trees'));
  const list = useLoad(() => trees.list(), []);
  const [editing, setEditing] = useState<Editing>(null);
  const items = list.data ?? [];
  // The cards' drawings: every listed tree's shape in one request (per 100 trees), read again only
  // when the trees listed change. A drawing is decoration: while it loads, or if it cannot, the card has none.
  const ids = items.map((tree) => tree.id).join(',');
  const shapes = useLoad(() => (ids === '' ? Promise.resolve(new Map()) : trees.shapes(ids.split(','))), [ids]);

  // A tree just made or renamed: its own change is its latest activity, unless something newer happened in it.
  const upsert = (tree: Tree) =>
    list.setData((old) => {
      const known = (old ?? []).find((x) => x.id === tree.id);
      const last =
        known !== undefined && known.last_activity_at > tree.updated_at ? known.last_activity_at : tree.updated_at;
      const item: TreeListItem = {
        ...tree,
        last_activity_at: last,
        task_counts: known?.task_counts ?? { open: 0, done: 0 },
      };
      return known !== undefined ? (old ?? []).map((x) => (x.id === tree.id ? item : x)) : [...(old ?? []), item];
    });

  return (
    <section class="page">
      <div class="page-head">
        <div>
          <h1>{t('trees.title')}</h1>
          <p class="lead">{t('trees.lead')}</p>
        </div>
        <button type="button" class="btn primary" onClick={() => setEditing({ kind: 'create' })}>
          {t('trees.newTree')}
        </button>
      </div>
      <Invitations onAccepted={() => void list.reload()} />
      <ErrorNote error={list.error} onRetry={list.reload} />
      {list.loading && list.data === null ? <p class="muted">{t('common.loading')}</p> : null}
      {list.data !== null && items.length === 0 ? <div class="card empty">{t('trees.empty')}</div> : null}
      {items.length > 0 ? (
        <ul class="tree-cards">
          {items.map((tree) => (
            <li key={tree.id} class="tree-card">
              <TreeThumbnail shape={shapes.data?.get(tree.id) ?? null} style={tree.style} />
              <div class="tree-card-main">
                <a class="tree-card-name" href={`/trees/${tree.id}`} id={`tree-name-${tree.id}`}>
                  {tree.name}
                </a>
                <span class="tree-card-meta">
                  {t(`trees.styles.${tree.style}`)} ·{' '}
                  {t('trees.updated', { date: formatDateTime(tree.last_activity_at, user.timezone) })}
                </span>
                <span class="tree-card-counts">
                  {t('treeCard.counts', {
                    open: formatCount(tree.task_counts.open),
                    done: formatCount(tree.task_counts.done),
                  })}
                </span>
              </div>
              <span class={tree.access === 'owner' ? 'badge grey' : 'badge'}>{t(`trees.role.${tree.access}`)}</span>
              {tree.access === 'owner' ? (
                <div class="row">
                  <a class="btn small" href={`/trees/${tree.id}/sharing`} aria-describedby={`tree-name-${tree.id}`}>
                    {t('sharing.link')}
                  </a>
                  <button
                    type="button"
                    class="btn small"
                    onClick={() => setEditing({ kind: 'edit', tree })}
                    aria-describedby={`tree-name-${tree.id}`}
                  >
                    {t('common.edit')}
                  </button>
                  <button
                    type="button"
                    class="btn small danger"
                    onClick={() => setEditing({ kind: 'delete', tree })}
                    aria-describedby={`tree-name-${tree.id}`}
                  >
                    {t('common.delete')}
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {editing?.kind === 'create' ? <ItemDialog kind="tree" onSaved={upsert} onClose={() => setEditing(null)} /> : null}
      {editing?.kind === 'edit' ? (
        // The tree as the list has it now: after Keep theirs (a conflict), their version is the one edited.
        <ItemDialog
          kind="tree"
          tree={items.find((x) => x.id === editing.tree.id) ?? editing.tree}
          onSaved={upsert}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {editing?.kind === 'delete' ? (
        <Confirm
          title={t('trees.deleteTitle')}
          text={t('trees.deleteText', { name: editing.tree.name })}
          confirmLabel={t('common.delete')}
          onConfirm={async () => {
            await trees.remove(editing.tree.id);
            list.setData((old) => (old ?? []).filter((x) => x.id !== editing.tree.id));
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}
