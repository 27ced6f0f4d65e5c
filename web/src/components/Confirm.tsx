import { useState } from 'preact/hooks';
import { useT } from '../i18n/use-t';
import { Modal } from './Modal';
import { ErrorNote, messageOf } from './ErrorNote';

/** Asks before something that cannot be undone; a failure stays in the dialog, in words. */
export function Confirm({ title, text, confirmLabel, onConfirm, onClose }: { title: string; text: string; confirmLabel: string; onConfirm(): Promise<void>; onClose(): void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(messageOf(e));
      setBusy(false);
    }
  }
  return (
    <Modal title={title} onClose={onClose}>
      <p>{text}</p>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" class="btn ghost" onClick={onClose}>{t('common.cancel')}</button>
        <button type="button" class="btn danger solid" onClick={confirm} disabled={busy}>{confirmLabel}</button>
      </div>
    </Modal>
  );
}
