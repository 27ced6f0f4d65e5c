import type { ComponentChildren } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import { useT } from '../i18n/use-t';

/** The first field of a dialog's form, which takes focus when it opens (not the × before it). */
const FIRST_FIELD = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * A modal dialog on the native <dialog>: the browser traps focus, makes the page behind it inert
 * and closes it on Escape, so none of that is hand-written. It opens on its first field, so what
 * is typed goes there and Enter submits; when it goes, focus goes back to what opened it.
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
  const titleId = useId();
  const t = useT();
  // Before the first paint, so the first key pressed after opening already reaches the field.
  useLayoutEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement;
    if (dialog !== null && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    }
    return () => {
      dialog?.close();
      // After this render has removed the dialog: back to the opener, while it is still on the page.
      requestAnimationFrame(() => {
        const focusable = opener instanceof HTMLElement || opener instanceof SVGElement;
        if (focusable && opener.isConnected && !document.querySelector('dialog[open]')) opener.focus();
      });
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={wide ? 'modal wide' : 'modal'}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <div class="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="btn ghost icon" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}
