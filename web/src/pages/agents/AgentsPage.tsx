import { useT } from '../../i18n/use-t';
import { usePageTitle } from '../../components/usePageTitle';
import { Tokens } from './Tokens';
import { Journal } from './Journal';
import { McpHelp } from './McpHelp';
import { Connections } from './Connections';

export function AgentsPage() {
  const t = useT();
  usePageTitle(t('agents.title'));
  return (
    <section class="page">
      <div class="page-head">
        <div>
          <h1>{t('agents.title')}</h1>
          <p class="lead">{t('agents.lead')}</p>
        </div>
      </div>
      <Tokens />
      <McpHelp />
      <Connections />
      <Journal />
    </section>
  );
}
