import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session';

/** Signed-in pages: a visitor goes to sign in, with the page to come back to (a path, never a credential). */
export function SignedIn({ children }: { children: ComponentChildren }) {
  const { user } = useSession();
  const { route, url, path } = useLocation();
  useEffect(() => {
    // While the sign-in page's chunk loads, this page stays mounted under the new address
    // (/signin?next=…): that address is where the person is going, not a page to come back to.
    if (user === null && path !== '/signin') route(`/signin?next=${encodeURIComponent(url)}`, true);
  }, [user, url, path, route]);
  return user === null ? null : <>{children}</>;
}

/** Sign in and create account: a signed-in person goes on to their trees (or where they were headed). */
export function SignedOut({ children }: { children: ComponentChildren }) {
  const { user } = useSession();
  const { route, query } = useLocation();
  // Where to go is read when the page opens: while the next page's chunk loads, this page stays
  // mounted under the new address, whose query has no `next`, and must not send the person on to
  // /trees instead.
  const [next] = useState(() => query.next);
  useEffect(() => {
    if (user !== null) route(safeNext(next), true);
  }, [user, next, route]);
  return user !== null ? null : <>{children}</>;
}

/** Only a same-origin path: `next` from the URL must never send the person elsewhere. */
export function safeNext(next: string | undefined): string {
  return next !== undefined && next.startsWith('/') && !next.startsWith('//') ? next : '/trees';
}

/** A link to another signed-out page that keeps where the visitor was headed (sign in ↔ create account). */
export function keepNext(path: string, next: string | undefined): string {
  return next !== undefined && safeNext(next) === next ? `${path}?next=${encodeURIComponent(next)}` : path;
}
