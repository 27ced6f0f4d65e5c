import { useState } from 'preact/hooks';
import { useT } from '../i18n/use-t';

/** Copies a value shown once (a token, an invitation link); without clipboard permission the value stays selectable text. */
export function CopyButton({ value }: { value: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button type="button" class="btn small" onClick={copy}>
      {copied ? t('common.copied') : t('common.copy')}
    </button>
  );
}
