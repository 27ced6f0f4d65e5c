import { auth, billing } from '../../api/endpoints';
import { ApiError } from '../../api/client';
import { useSession, useUser } from '../../session';
import { useT } from '../../i18n/use-t';
import { formatDateTime } from '../../i18n/format';
import { useLoad } from '../../components/useLoad';
import { ErrorNote, messageOf } from '../../components/ErrorNote';
import { useSubmit } from '../../components/useSubmit';
import { usePageTitle } from '../../components/usePageTitle';
import { TableScroll } from '../../components/TableScroll';
import { PlansTable } from './PlansTable';
import { useCheckoutReturn, type ReturnState } from './useCheckoutReturn';

/**
 * Billing (CONTRACT §15): the plan and its end, every plan with its limits and price, upgrade
 * through the provider's hosted checkout and manage through its portal. Always in test mode, said
 * by a banner; while the server is not configured the page says so and its buttons are disabled.
 */
export function BillingPage() {
  const t = useT();
  const user = useUser();
  const { setUser } = useSession();
  usePageTitle(t('billing.title'));
  const info = useLoad(() => billing.get(), []);
  // The nav and the account page show the plan too: refresh the session's user once it changed.
  const returned = useCheckoutReturn(
    info,
    () =>
      void auth
        .me()
        .then((fresh) => fresh !== null && setUser(fresh))
        .catch(() => undefined),
  );
  // Leaves for the provider's page, the button disabled until the browser has gone; a caller may word a conflict.
  const {
    busy,
    error,
    run: go,
  } = useSubmit<[open: () => Promise<string>, whenConflict?: string]>(
    async (open) => {
      window.location.assign(await open());
    },
    {
      leaves: true,
      errorText: (e, _open, whenConflict) =>
        e instanceof ApiError && e.code === 'conflict' && whenConflict !== undefined ? whenConflict : messageOf(e),
    },
  );

  const data = info.data;
  const name = (plan: string) => t(`account.planName.${plan as 'seed'}`);
  return (
    <section class="page">
      <h1>{t('billing.title')}</h1>
      <p class="note warn" role="note">
        <span>
          <strong>{t('billing.testMode')}.</strong> {t('billing.testModeText')}
          {/* A test card is only worth naming where a checkout can be opened. */}
          {info.data?.configured === true ? ` ${t('billing.testCard')}` : null}
        </span>
      </p>
      <ReturnNote state={returned} name={name} />
      <ErrorNote error={info.error} onRetry={info.reload} />
      {data === null && info.loading ? <p class="muted">{t('common.loading')}</p> : null}
      {data !== null ? (
        <>
          {!data.configured ? (
            <p class="note info" role="status">
              {t('billing.unavailable')}
            </p>
          ) : null}
          <div class="card">
            <h2>{t('billing.current')}</h2>
            <p class="plan-name">{name(data.effective_plan)}</p>
            <p class="muted">
              {data.plan_expires_at !== null
                ? t('billing.until', { date: formatDateTime(data.plan_expires_at, user.timezone) })
                : t('billing.noExpiry')}
            </p>
            <p class="section-lead">{t('billing.manageLead')}</p>
            <div class="actions">
              <button
                type="button"
                class="btn"
                disabled={!data.configured || busy}
                onClick={() => void go(billing.portal, t('billing.noSubscription'))}
              >
                {t('billing.manage')}
              </button>
            </div>
          </div>
          <ErrorNote error={error} />
          <div class="card">
            <h2 id="plans-title">{t('billing.plans')}</h2>
            <TableScroll labelledBy="plans-title">
              <PlansTable billing={data} busy={busy} onUpgrade={(plan) => void go(() => billing.checkout(plan))} />
            </TableScroll>
          </div>
        </>
      ) : null}
    </section>
  );
}

function ReturnNote({ state, name }: { state: ReturnState; name: (plan: string) => string }) {
  const t = useT();
  switch (state.kind) {
    case 'none':
      return null;
    case 'cancelled':
      return (
        <p class="note info" role="status">
          {t('billing.cancelled')}
        </p>
      );
    case 'waiting':
      return (
        <p class="note info" role="status">
          {t('billing.waiting', { plan: name(state.plan) })}
        </p>
      );
    case 'confirmed':
      return (
        <p class="note ok" role="status">
          {t('billing.confirmed', { plan: name(state.plan) })}
        </p>
      );
    case 'slow':
      return (
        <p class="note warn" role="status">
          {t('billing.slow')}
        </p>
      );
  }
}
