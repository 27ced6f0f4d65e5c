import { useEffect, useMemo, useState } from 'preact/hooks';
import { history, tasks } from '../../api/endpoints';
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
    <Entries items={items} people={people} names={names} timezone={user.timezone}>
      <ErrorNote error={error} />
      {cursor !== null ? (
        <div>
          <button type="button" class="btn small" onClick={() => void loadMore(cursor)} disabled={busy}>
            {t('activity.loadMore')}
          </button>
        </div>
      ) : null}
    </Entries>
  );
}

/** The tasks an entry names: its own, or the one a comment or file belongs to. */
function taskIdsOf(entry: HistoryEntry): string[] {
  const ids = entry.entity === 'task' ? [entry.entity_id] : [];
  const taskId = entry.changes.task_id?.to;
  if (typeof taskId === 'string') ids.push(taskId);
  return ids;
}

/**
 * The entries as sentences. Tasks no longer in the drawing (archived, or moved to a tree the person
 * also sees) are named by reading them once; one the person cannot read stays "a task".
 */
function Entries({
  items,
  people,
  names,
  timezone,
  children,
}: {
  items: HistoryEntry[];
  people: People;
  names: Names;
  timezone: string;
  children: preact.ComponentChildren;
}) {
  const t = useT();
  const [read, setRead] = useState<ReadonlyMap<string, string | null>>(new Map());
  const missing = useMemo(
    () => [...new Set(items.flatMap(taskIdsOf))].filter((id) => names.task(id) === null && !read.has(id)),
    [items, names, read],
  );
  useEffect(() => {
    if (missing.length === 0) return;
    let live = true;
    void Promise.all(
      missing.map((id) =>
        tasks.get(id).then(
          (task) => [id, task.title] as const,
          () => [id, null] as const,
        ),
      ),
    ).then((found) => {
      if (live) setRead((old) => new Map([...old, ...found]));
    });
    return () => {
      live = false;
    };
  }, [missing]);
  const known = useMemo<Names>(
    () => ({ task: (id) => names.task(id) ?? read.get(id) ?? null, project: names.project }),
    [names, read],
  );

  return (
    <div class="stack">
      {items.length === 0 ? <p class="muted">{t('activity.noHistory')}</p> : null}
      <ol class="history">
        {items.map((entry) => (
          <li key={entry.id}>
            <span>{describeEntry(t, entry, people, known)}</span>
            <span class="muted small-text">
              <time dateTime={entry.at}>{formatDateTime(entry.at, timezone)}</time>
              {entry.via !== 'session' ? ` · ${t(`activity.viaDoor.${entry.via as 'token'}`)}` : ''}
            </span>
          </li>
        ))}
      </ol>
      {children}
    </div>
  );
}
