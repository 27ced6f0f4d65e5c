import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';
import { Tabs } from '../../components/Tabs';
import { Messages } from './Messages';
import { History, type HistoryProps } from './History';

type Tab = 'messages' | 'history';

/** The tree's messages and its history as two tabs; a link to one change opens History on it. */
export function Activity(props: HistoryProps) {
  const { treeId, people, canWrite, changeId } = props;
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
        {tab === 'messages' ? <Messages treeId={treeId} people={people} canWrite={canWrite} /> : <History {...props} />}
      </Tabs>
    </div>
  );
}
