import type { ComponentChildren } from 'preact';

/**
 * A table wider than a phone scrolls inside this box, never the page (CONTRACT §18). The box takes
 * focus, so a keyboard can scroll it too, and is named for screen readers by the table's heading.
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabIndex={0} role="group" aria-labelledby={labelledBy}>
      {children}
    </div>
  );
}
