/** The mark: a small sapling, drawn in the app's green. Decorative: the brand text names it. */
export function Logo() {
  return (
    <svg class="logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" class="logo-bg" />
      <path d="M16 27V14M16 19l-5-5M16 17l5-4" class="logo-stem" />
      <circle cx="10" cy="12" r="3" class="logo-leaf" />
      <circle cx="22" cy="11" r="3" class="logo-leaf" />
      <circle cx="16" cy="9" r="3.4" class="logo-leaf light" />
    </svg>
  );
}
