import { useEffect } from 'preact/hooks';

/** The tab title names the page, so history and screen readers can tell pages apart. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Task Tree`;
  }, [title]);
}
