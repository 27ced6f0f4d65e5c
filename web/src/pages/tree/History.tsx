import { useState } from 'preact/hooks';
import { history } from '../../api/endpoints';
import type { HistoryEntry, Page } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import type { People } from './people';
import { describeEntry, type Names } from './historyText';

/** The tree's history, newest first: one page, then the next on "Load more" (a busy tree has thousands of entries). */
export function History({ treeId, people, names }: { treeId: string; people: People; names: Names }) {
  const t = useT();
  const user = useUser();
  const first = useLoad<Page<HistoryEntry>>(() => history.page(treeId), [treeId]);
  const [more, setMore] = useState<{ items: HistoryEntry[]; cursor: string | null } | null>(null);
  const {
    busy,
    error,
    run: loadMore,
  } = useSubmit(async (cursor: string) => {
    const page = await history.page(treeId, cursor);
    setMore((old) => ({ items: [...(old?.items ?? []), ...page.items], cursor: page.next_cursor }));
  });
  if (first.data === null)
    return (
      <>
        <ErrorNote error={first.error} onRetry={first.reload} />
        {first.loading ? <p class="muted">{t('common.loading')}</p> : null}
      </>
    );
  const items = [...first.data.items, ...(more?.items ?? [])];
  const cursor = more !== null ? more.cursor : first.data.next_cursor;

  return (
    <div class="stack">
      {items.length === 0 ? <p class="muted">{t('activity.noHistory')}</p> : null}
      <ol class="history">
        {items.map((entry) => (
          <li key={entry.id}>
            <span>{describeEntry(t, entry, people, names)}</span>
            <span class="muted small-text">
              <time dateTime={entry.at}>{formatDateTime(entry.at, user.timezone)}</time>
              {entry.via !== 'session' ? ` · ${t('activity.via', { via: entry.via.toUpperCase() })}` : ''}
            </span>
          </li>
        ))}
      </ol>
      <ErrorNote error={error} />
      {cursor !== null ? (
        <div>
          <button type="button" class="btn small" onClick={() => void loadMore(cursor)} disabled={busy}>
            {t('activity.loadMore')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
