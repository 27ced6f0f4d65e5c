import { useT } from '../i18n/use-t';
import { Modal } from './Modal';
import { ErrorNote } from './ErrorNote';
import { useSubmit } from './useSubmit';

/** Asks before something that cannot be undone; a failure stays in the dialog, in words. */
export function Confirm({
  title,
  text,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm(): Promise<void>;
  onClose(): void;
}) {
  const t = useT();
  const {
    busy,
    error,
    run: confirm,
  } = useSubmit(
    async () => {
      await onConfirm();
      onClose();
    },
    { leaves: true },
  );
  return (
    <Modal title={title} onClose={onClose}>
      <p>{text}</p>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" class="btn ghost" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" class="btn danger solid" onClick={() => void confirm()} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
