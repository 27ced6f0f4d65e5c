import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/use-t';

/**
 * A modal dialog on the native <dialog>: the browser traps focus, makes the page behind it inert
 * and closes it on Escape, so none of that is hand-written.
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose(): void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      class={wide ? 'modal wide' : 'modal'}
      aria-labelledby="modal-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div class="modal-head">
        <h2 id="modal-title">{title}</h2>
        <button type="button" class="btn ghost icon" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}
