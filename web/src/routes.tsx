import type { ComponentType } from 'preact';
import { lazy } from 'preact-iso';
import { SignedIn, SignedOut } from './components/Guards';
import { Home } from './pages/Home';
import { About } from './pages/About';

// Each page is its own chunk: the first load carries only the shell and the page it opens.
const Billing = lazy(() => import('./pages/BillingPage').then((m) => m.BillingPage));
const NotFound = lazy(() => import('./pages/NotFound').then((m) => m.NotFound));

/** One wrapper decides who may see a page: signed-in pages send visitors to sign in, and back. */
function signedIn<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return (props: P) => <SignedIn><Page {...props} /></SignedIn>;
}
export function signedOut<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return (props: P) => <SignedOut><Page {...props} /></SignedOut>;
}

export const routes: { path: string; component: ComponentType<object> }[] = [
  { path: '/', component: Home },
  { path: '/about', component: About },
  { path: '/billing', component: signedIn(Billing) },
  { path: '/*', component: NotFound },
];
