import { useEffect, useRef } from 'preact/hooks';
import { useSubmit } from './useSubmit';

/** How long a notice stays: long enough to read it and reach its button. */
const SHOWN_MS = 10_000;

export interface NoticeContent {
  text: string;
  /** A button in the notice (Undo); the notice goes when it has run. */
  action?: { label: string; run(): Promise<void> };
  /** A link in the notice (the tree a task moved to). */
  link?: { label: string; href: string };
}

/**
 * A brief notice at the foot of the page, announced politely, that goes by itself after a few
 * seconds, but not while the pointer or focus is in it.
 */
export function Notice({ notice, onDone }: { notice: NoticeContent; onDone(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const { busy, error, run } = useSubmit(async () => {
    await notice.action!.run();
    onDone();
  });
  useEffect(() => {
    const timer = setInterval(() => {
      const here = ref.current;
      if (here !== null && (here.matches(':hover') || here.contains(document.activeElement))) return;
      onDone();
    }, SHOWN_MS);
    return () => clearInterval(timer);
  }, [notice, onDone]);
  return (
    <div ref={ref} class="notice" role="status">
      <span class="notice-text">{notice.text}</span>
      {notice.link !== undefined ? <a href={notice.link.href}>{notice.link.label}</a> : null}
      {notice.action !== undefined ? (
        <button type="button" class="btn small" onClick={() => void run()} disabled={busy}>
          {notice.action.label}
        </button>
      ) : null}
      {error !== null ? <span class="inline-error">{error}</span> : null}
    </div>
  );
}
