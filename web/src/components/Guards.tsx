import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session';

/** Signed-in pages: a visitor goes to sign in, with the page to come back to (a path, never a credential). */
export function SignedIn({ children }: { children: ComponentChildren }) {
  const { user } = useSession();
  const { route, url } = useLocation();
  useEffect(() => {
    if (user === null) route(`/signin?next=${encodeURIComponent(url)}`, true);
  }, [user, url, route]);
  return user === null ? null : <>{children}</>;
}

/** Sign in and create account: a signed-in person goes on to their trees (or where they were headed). */
export function SignedOut({ children }: { children: ComponentChildren }) {
  const { user } = useSession();
  const { route, query } = useLocation();
  useEffect(() => {
    if (user !== null) route(safeNext(query.next), true);
  }, [user, query.next, route]);
  return user !== null ? null : <>{children}</>;
}

/** Only a same-origin path: `next` from the URL must never send the person elsewhere. */
export function safeNext(next: string | undefined): string {
  return next !== undefined && next.startsWith('/') && !next.startsWith('//') ? next : '/trees';
}
