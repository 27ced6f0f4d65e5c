import { useT } from '../i18n/use-t';
import { useUser } from '../session';
import { usePageTitle } from '../components/usePageTitle';

/** Billing has its own issue; until then the page says so and shows the plan the person has. */
export function BillingPage() {
  const t = useT();
  const user = useUser();
  usePageTitle(t('billing.title'));
  return (
    <section class="page narrow">
      <h1>{t('billing.title')}</h1>
      <div class="card">
        <h2>{t('billing.current')}</h2>
        <p class="plan-name">{t(`account.planName.${user.effective_plan}`)}</p>
      </div>
      <p class="note info" role="status">{t('billing.unavailable')}</p>
    </section>
  );
}
