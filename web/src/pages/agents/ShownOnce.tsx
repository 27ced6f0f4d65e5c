import { useT } from '../../i18n/use-t';
import { CopyButton } from '../../components/CopyButton';

/**
 * A new token's value, shown once. It lives only in this component's memory: a reload or leaving
 * the page forgets it, as the server does (it keeps a hash).
 */
export function ShownOnce({ name, value, onDone }: { name: string; value: string; onDone(): void }) {
  const t = useT();
  return (
    <div class="stack shown-once" role="status">
      <strong>
        {t('agents.newValue')}: {name}
      </strong>
      <div class="secret">
        <code data-token-value>{value}</code>
        <CopyButton value={value} />
      </div>
      <p class="note warn">{t('agents.newValueWarning')}</p>
      <div class="actions start">
        <button type="button" class="btn ghost small" onClick={onDone}>
          {t('common.close')}
        </button>
      </div>
    </div>
  );
}
