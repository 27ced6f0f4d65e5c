import { useState } from 'preact/hooks';
import { useT } from '../../i18n/use-t';

/**
 * A new token's value, shown once. It lives only in this component's memory: a reload or leaving
 * the page forgets it, as the server does (it keeps a hash).
 */
export function ShownOnce({ name, value, onDone }: { name: string; value: string; onDone(): void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard permission: the value is selectable text, so copying by hand still works.
      setCopied(false);
    }
  }
  return (
    <div class="stack shown-once" role="status">
      <strong>{t('agents.newValue')}: {name}</strong>
      <div class="secret">
        <code data-token-value>{value}</code>
        <button type="button" class="btn small" onClick={copy}>{copied ? t('common.copied') : t('common.copy')}</button>
      </div>
      <p class="note warn">{t('agents.newValueWarning')}</p>
      <div class="actions start"><button type="button" class="btn ghost small" onClick={onDone}>{t('common.close')}</button></div>
    </div>
  );
}
