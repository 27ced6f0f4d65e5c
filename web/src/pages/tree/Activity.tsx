import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import type { People } from './people';
import type { Names } from './historyText';
import { Messages } from './Messages';
import { History } from './History';

type Tab = 'messages' | 'history';
const TABS: readonly Tab[] = ['messages', 'history'];

/** The tree's messages and its history as two tabs (WAI-ARIA tabs: arrow keys move between them). */
export function Activity({
  treeId,
  people,
  names,
  canWrite,
}: {
  treeId: string;
  people: People;
  names: Names;
  canWrite: boolean;
}) {
  const t = useT();
  const [tab, setTab] = useState<Tab>('messages');
  function onKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = TABS[(TABS.indexOf(tab) + 1) % TABS.length]!;
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  }
  return (
    <div class="card">
      <h2>{t('activity.title')}</h2>
      <div class="tabs" role="tablist" aria-label={t('activity.title')} onKeyDown={onKey}>
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            class="tab"
            aria-selected={tab === name}
            aria-controls={`tabpanel-${name}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
          >
            {t(`activity.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`} class="tabpanel">
        {tab === 'messages' ? (
          <Messages treeId={treeId} people={people} canWrite={canWrite} />
        ) : (
          <History treeId={treeId} people={people} names={names} />
        )}
      </div>
    </div>
  );
}
