import type { Billing, BillingPlan } from '../../api/types';
import { i18n } from '../../i18n';
import { formatBytes } from '../../i18n/format';
import { useT } from '../../i18n/use-t';

/** A price in minor units as the currency writes it: 500 usd is $5.00, 500 jpy is ¥500. */
export function formatPrice(price: NonNullable<BillingPlan['price']>): string {
  const format = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: price.currency.toUpperCase() });
  return format.format(price.amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

interface Props {
  billing: Billing;
  busy: boolean;
  onUpgrade(plan: 'sprout' | 'grove'): void;
}

/** Plans from the smallest up: an upgrade is only ever to a larger one. */
const RANK: Record<BillingPlan['id'], number> = { seed: 0, sprout: 1, grove: 2 };

/** The plans side by side, one row per limit, with an upgrade button under each plan larger than the current one. */
export function PlansTable({ billing, busy, onUpgrade }: Props) {
  const t = useT();
  const count = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  const yesNo = (b: boolean) => (b ? t('billing.yes') : t('billing.no'));
  const rows: [string, (plan: BillingPlan) => string][] = [
    [t('billing.agentWrites'), (p) => (p.limits.agent_writes ? t('billing.agentsWrite') : t('billing.agentsRead'))],
    [t('billing.trees'), (p) => count(p.limits.trees)],
    [t('billing.projectsPerTree'), (p) => count(p.limits.projects_per_tree)],
    [t('billing.tasksPerTree'), (p) => count(p.limits.tasks_per_tree)],
    [t('billing.storage'), (p) => formatBytes(p.limits.storage_bytes)],
    [t('billing.history'), (p) => t('billing.days', { days: p.limits.history_days })],
    [t('billing.transcription'), (p) => yesNo(p.limits.transcription)],
    [t('billing.sharing'), (p) => yesNo(p.limits.sharing)],
  ];
  const name = (plan: BillingPlan) => t(`account.planName.${plan.id}`);
  return (
    <table>
      <caption class="visually-hidden">{t('billing.plans')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('billing.limit')}</th>
          {billing.plans.map((plan) => (
            <th scope="col" key={plan.id}>
              {name(plan)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">{t('billing.price')}</th>
          {billing.plans.map((plan) => (
            <td key={plan.id}>
              {plan.price === null ? t('billing.free') : t('billing.perMonth', { price: formatPrice(plan.price) })}
            </td>
          ))}
        </tr>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            {billing.plans.map((plan) => (
              <td key={plan.id}>{value(plan)}</td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td />
          {billing.plans.map((plan) => (
            <td key={plan.id}>
              {plan.id === billing.effective_plan ? <span class="badge">{t('billing.currentPlan')}</span> : null}
              {RANK[plan.id] > RANK[billing.effective_plan] ? (
                <button
                  type="button"
                  class="btn primary small"
                  disabled={!billing.configured || busy}
                  onClick={() => onUpgrade(plan.id as 'sprout' | 'grove')}
                >
                  {t('billing.upgrade', { plan: name(plan) })}
                </button>
              ) : null}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  );
}
