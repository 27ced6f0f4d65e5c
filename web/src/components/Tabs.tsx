import type { ComponentChildren } from 'preact';

/**
 * WAI-ARIA tabs: one tab per name, the arrow keys move between them, and one panel shows the
 * chosen tab's content. `id` keeps two tab sets on one page apart.
 */
export function Tabs<T extends string>({
  id,
  label,
  tabs,
  current,
  onChange,
  children,
}: {
  id: string;
  label: string;
  tabs: readonly { name: NoInfer<T>; label: string }[];
  current: T;
  onChange(name: NoInfer<T>): void;
  children: ComponentChildren;
}) {
  const names = tabs.map((tab) => tab.name);
  function onKey(event: KeyboardEvent) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const step = event.key === 'ArrowRight' ? 1 : names.length - 1;
    const next = names[(names.indexOf(current) + step) % names.length]!;
    onChange(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  }
  return (
    <>
      <div class="tabs" role="tablist" aria-label={label} onKeyDown={onKey}>
        {tabs.map((tab) => (
          <button
            key={tab.name}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.name}`}
            class="tab"
            aria-selected={current === tab.name}
            aria-controls={`${id}-panel-${tab.name}`}
            tabIndex={current === tab.name ? 0 : -1}
            onClick={() => onChange(tab.name)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel-${current}`} aria-labelledby={`${id}-tab-${current}`} class="tabpanel">
        {children}
      </div>
    </>
  );
}
