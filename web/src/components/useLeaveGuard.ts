import { useLayoutEffect } from 'preact/hooks';

/** The question of the view that holds unsaved work, and the address it is at, while one does. */
let held: { question: string; at: string } | null = null;

/**
 * Asks before the unsaved work goes; true when there is none or the person chose to leave. The
 * page's own ways of leaving a panel (another task, ×, Escape) call it; links, Back and reload are
 * caught by the listeners of installLeaveGuard.
 */
export function confirmLeave(): boolean {
  if (held === null) return true;
  if (!window.confirm(held.question)) return false;
  held = null;
  return true;
}

/** A link the router would follow inside the app to another address (preact-iso's own test). */
function appLink(event: MouseEvent): boolean {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return false;
  const link = event.composedPath().find((el): el is HTMLAnchorElement => el instanceof HTMLAnchorElement);
  if (link === undefined || link.href === '' || link.origin !== location.origin || link.download !== '') return false;
  if (!/^(_?self)?$/i.test(link.target) || link.getAttribute('href')?.startsWith('#') === true) return false;
  return link.pathname + link.search !== location.pathname + location.search;
}

/** Some view holds unsaved work (the open tree keeps a record under edit as the person saw it). */
export function hasUnsavedWork(): boolean {
  return held !== null;
}

/**
 * Installed once, before the router mounts: a window's listeners of one event run in the order
 * they were added (capture or not, for popstate), so these run first, and a "Stay" stops the
 * router from following a link or Back. A reload or a closed tab gets the browser's own question.
 */
export function installLeaveGuard(): void {
  addEventListener(
    'click',
    (event) => {
      if (held === null || !appLink(event) || confirmLeave()) return;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
  addEventListener('popstate', (event) => {
    if (held === null) return;
    const at = held.at;
    if (confirmLeave()) return;
    // The address has changed already: the router must not follow it, and it goes back.
    event.stopImmediatePropagation();
    history.pushState(null, '', at);
  });
  addEventListener('beforeunload', (event) => {
    if (held === null) return;
    event.preventDefault();
    event.returnValue = '';
  });
}

/** While `dirty`, leaving this view (a link, Back, reload, or the page's own ways) asks `question` first. */
export function useLeaveGuard(dirty: boolean, question: string): void {
  // A layout effect: held from the render that follows the keystroke, before the next key (Escape) arrives.
  useLayoutEffect(() => {
    if (!dirty) return;
    const mine = { question, at: location.pathname + location.search };
    held = mine;
    return () => {
      if (held === mine) held = null;
    };
  }, [dirty, question]);
}
