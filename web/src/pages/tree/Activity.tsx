import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { Tabs } from '../../components/Tabs';
import type { People } from './people';
import type { Names } from './historyText';
import { Messages } from './Messages';
import { History } from './History';

type Tab = 'messages' | 'history';

/** The tree's messages and its history as two tabs. */
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
          <History treeId={treeId} people={people} names={names} />
        )}
      </Tabs>
    </div>
  );
}
