import { useState } from 'preact/hooks';
import { tasks } from '../../api/endpoints';
import { useT } from '../../i18n/use-t';
import { useSubmit } from '../../components/useSubmit';
import { QUERY_MAX } from '../../api/bounds';
import type { Task } from '../../api/types';

/**
 * Searches this tree on submit; the tasks found are handed up, to highlight their leaves and list
 * the archived ones (which the drawing leaves out), so every task counted is shown.
 */
export function SearchBox({ treeId, onResults }: { treeId: string; onResults(found: Task[] | null): void }) {
  const t = useT();
  const [q, setQ] = useState('');
  const [count, setCount] = useState<number | null>(null);
  const { error, submit } = useSubmit(async () => {
    if (q.trim() === '') return clear();
    const page = await tasks.search(q.trim(), treeId);
    setCount(page.items.length);
    onResults(page.items);
  });
  function clear() {
    setQ('');
    setCount(null);
    onResults(null);
  }
  return (
    <form role="search" class="searchbox" onSubmit={submit}>
      <label class="visually-hidden" for="tree-search">
        {t('fields.search')}
      </label>
      <input
        id="tree-search"
        type="search"
        value={q}
        onInput={(e) => setQ(e.currentTarget.value)}
        placeholder={t('tree.searchPlaceholder')}
        maxLength={QUERY_MAX}
      />
      <button class="btn">{t('fields.search')}</button>
      {count !== null ? (
        <button type="button" class="btn ghost small" onClick={clear}>
          {t('tree.clearSearch')}
        </button>
      ) : null}
      <span role="status" class="muted small-text">
        {count !== null ? t('tree.searchResults', { count }) : ''}
      </span>
      {error !== null ? (
        <span role="alert" class="inline-error">
          {error}
        </span>
      ) : null}
    </form>
  );
}
