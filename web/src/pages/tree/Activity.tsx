import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { Tabs } from '../../components/Tabs';
import type { People } from './people';
import type { Names } from './historyText';
import { Messages } from './Messages';
import { History } from './History';

type Tab = 'messages' | 'history';

/** The tree's messages and its history as two tabs; a link to one change opens History on it. */
export function Activity({
  treeId,
  people,
  names,
  canWrite,
  fresh,
  changeId,
  onReverted,
  onShowAll,
}: {
  treeId: string;
  people: People;
  names: Names;
  canWrite: boolean;
  /** Changes whenever the tree does, so an open History reads its first page again. */
  fresh: unknown;
  changeId: string | null;
  onReverted(): void;
  onShowAll(): void;
}) {
  const t = useT();
  const [tab, setTab] = useState<Tab>(changeId !== null ? 'history' : 'messages');
  return (
    <div class="card">
      <h2>{t('activity.title')}</h2>
      <Tabs
        id="activity"
        label={t('activity.title')}
        tabs={[
          { name: 'messages', label: t('activity.messages') },
          { name: 'history', label: t('activity.history') },
        ]}
        current={tab}
        onChange={setTab}
      >
        {tab === 'messages' ? (
          <Messages treeId={treeId} people={people} canWrite={canWrite} />
        ) : (
          <History
            treeId={treeId}
            people={people}
            names={names}
            canWrite={canWrite}
            fresh={fresh}
            changeId={changeId}
            onReverted={onReverted}
            onShowAll={onShowAll}
          />
        )}
      </Tabs>
    </div>
  );
}
