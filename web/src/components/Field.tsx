import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/**
 * A labelled control. The label points at the control by id instead of wrapping it, so the
 * control's accessible name is exactly the label ("Style"), not the label plus its current value.
 */
export function Field({ label, children }: { label: string; children: (id: string) => ComponentChildren }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id)}
    </div>
  );
}
