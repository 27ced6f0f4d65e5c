import { useMemo, useState } from 'preact/hooks';
import { changes as changesApi, history } from '../../api/endpoints';
import type { HistoryEntry, Page, RevertResult } from '../../api/types';
import { useT } from '../../i18n/use-t';
import { useUser } from '../../session';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import type { People } from './people';
import type { Names } from './historyText';
import { ChangeRow } from './ChangeRow';
import { canUndo, groupChanges, undoneChanges, type ChangeGroup } from '../changes/changeGroups';
import { whoText } from '../changes/changeText';
import { changeSummary } from './changeSummary';
import { UndoDialog } from '../changes/UndoDialog';
import { describeLaterChanges } from '../changes/laterText';
import { undoneText } from '../changes/undoneText';

/**
 * The tree's history as changes, newest first (CONTRACT §16.4): one page, then the next on "Load
 * more" (a busy tree has thousands of entries). With `changeId`, that one change, opened.
 * `fresh` changes when the tree did: the first page is read again.
 */
export interface HistoryProps {
  treeId: string;
  people: People;
  names: Names;
  canWrite: boolean;
  /** Changes whenever the tree does, so an open History reads its first page again. */
  fresh: unknown;
  changeId: string | null;
  /** A change was undone: the tree is read again. */
  onReverted(): void;
  onShowAll(): void;
}

export function History({ treeId, people, names, canWrite, fresh, changeId, onReverted, onShowAll }: HistoryProps) {
  const t = useT();
  const user = useUser();
  const first = useLoad<Page<HistoryEntry>>(
    () => history.page(treeId, undefined, changeId !== null ? { change_id: changeId } : {}),
    [treeId, fresh, changeId],
  );
  const [more, setMore] = useState<{ items: HistoryEntry[]; cursor: string | null } | null>(null);
  const [undoing, setUndoing] = useState<ChangeGroup | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const {
    busy,
    error,
    run: loadMore,
  } = useSubmit(async (cursor: string) => {
    const page = await history.page(treeId, cursor);
    setMore((old) => ({ items: [...(old?.items ?? []), ...page.items], cursor: page.next_cursor }));
  });
  // A first page read again (the tree changed) overlaps the pages loaded after the old one: each entry once.
  const items = useMemo(() => {
    const all = [...(first.data?.items ?? []), ...(more?.items ?? [])];
    const seen = new Set<string>();
    return all.filter((x) => !seen.has(x.id) && (seen.add(x.id), true));
  }, [first.data, more]);
  const groups = useMemo(() => groupChanges(items), [items]);
  const undone = useMemo(() => undoneChanges(groups), [groups]);
  if (first.data === null)
    return (
      <>
        <ErrorNote error={first.error} onRetry={first.reload} />
        {first.loading ? <p class="muted">{t('common.loading')}</p> : null}
      </>
    );
  const cursor = more !== null ? more.cursor : first.data.next_cursor;
  const when = (at: string) => formatDateTime(at, user.timezone);
  /** A later change this list holds, in words. */
  const known = (id: string) => {
    const change = groups.find((g) => g.changeId === id);
    return change === undefined
      ? null
      : t('changes.laterChange', {
          who: whoText(t, change, people),
          when: when(change.at),
          summary: changeSummary(t, change, people, names),
        });
  };
  const reverted = (result: RevertResult) => {
    setOutcome(undoneText(t, result));
    setMore(null);
    void first.reload();
    onReverted();
  };

  return (
    <div class="stack">
      {changeId !== null ? (
        <p class="list-filter-note">
          <span>{t('changes.onlyThis')}</span>
          <button type="button" class="btn small" onClick={onShowAll}>
            {t('changes.showAll')}
          </button>
        </p>
      ) : null}
      <p class={outcome !== null ? 'note ok' : 'visually-hidden'} role="status">
        {outcome ?? ''}
      </p>
      {groups.length === 0 ? <p class="muted">{t('activity.noHistory')}</p> : null}
      <ol class="history changes">
        {groups.map((change) => (
          <ChangeRow
            key={change.key}
            change={change}
            people={people}
            names={names}
            timezone={user.timezone}
            undone={change.changeId !== null && undone.has(change.changeId)}
            undo={canWrite && canUndo(change) ? () => setUndoing(change) : undefined}
            expanded={changeId !== null}
          />
        ))}
      </ol>
      <ErrorNote error={error} />
      {cursor !== null && changeId === null ? (
        <div>
          <button type="button" class="btn small" onClick={() => void loadMore(cursor)} disabled={busy}>
            {t('activity.loadMore')}
          </button>
        </div>
      ) : null}
      {undoing !== null && undoing.changeId !== null ? (
        <UndoDialog
          title={t('changes.undoTitle')}
          text={t('changes.undoText', {
            summary: changeSummary(t, undoing, people, names),
            who: whoText(t, undoing, people),
            when: when(undoing.at),
          })}
          run={(force) => changesApi.revert(undoing.changeId!, force)}
          describeLater={(details) => describeLaterChanges(t, details, known)}
          onDone={reverted}
          onClose={() => setUndoing(null)}
        />
      ) : null}
    </div>
  );
}
