import { useT } from '../../i18n/use-t';
import { usePageTitle } from '../../components/usePageTitle';
import { Tokens } from './Tokens';
import { Journal } from './Journal';
import { McpHelp } from './McpHelp';

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
      <section class="card" aria-labelledby="oauth-title">
        <div class="spread">
          <h2 id="oauth-title">{t('agents.oauth')}</h2>
          <span class="badge grey">{t('common.comingSoon')}</span>
        </div>
        <p class="muted">{t('agents.oauthSoon')}</p>
      </section>
      <Journal />
    </section>
  );
}
