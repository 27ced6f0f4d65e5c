import type { ComponentType } from 'preact';
import { lazy } from 'preact-iso';
import { SignedIn, SignedOut } from './components/Guards';
import { Home } from './pages/Home';
import { About } from './pages/About';

// Each page is its own chunk: the first load carries only the shell and the page it opens.
const SignIn = lazy(() => import('./pages/auth/SignIn').then((m) => m.SignIn));
const Register = lazy(() => import('./pages/auth/Register').then((m) => m.Register));
const Forgot = lazy(() => import('./pages/auth/Forgot').then((m) => m.Forgot));
const Reset = lazy(() => import('./pages/auth/Reset').then((m) => m.Reset));
const Verify = lazy(() => import('./pages/auth/Verify').then((m) => m.Verify));
const AcceptInvite = lazy(() => import('./pages/sharing/AcceptInvite').then((m) => m.AcceptInvite));
const Trees = lazy(() => import('./pages/trees/TreesPage').then((m) => m.TreesPage));
const Upcoming = lazy(() => import('./pages/upcoming/UpcomingPage').then((m) => m.UpcomingPage));
const Sharing = lazy(() => import('./pages/sharing/SharingPage').then((m) => m.SharingPage));
const TreePage = lazy(() => import('./pages/tree/TreePage').then((m) => m.TreePage));
const Change = lazy(() => import('./pages/changes/ChangePage').then((m) => m.ChangePage));
const Agents = lazy(() => import('./pages/agents/AgentsPage').then((m) => m.AgentsPage));
const Account = lazy(() => import('./pages/AccountPage').then((m) => m.AccountPage));
const Billing = lazy(() => import('./pages/billing/BillingPage').then((m) => m.BillingPage));
const NotFound = lazy(() => import('./pages/NotFound').then((m) => m.NotFound));

/** One wrapper decides who may see a page: signed-in pages send visitors to sign in, and back. */
function signedIn<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return (props: P) => (
    <SignedIn>
      <Page {...props} />
    </SignedIn>
  );
}
function signedOut<P extends object>(Page: ComponentType<P>): ComponentType<P> {
  return (props: P) => (
    <SignedOut>
      <Page {...props} />
    </SignedOut>
  );
}

export const routes: { path: string; component: ComponentType<object> }[] = [
  { path: '/', component: Home },
  { path: '/about', component: About },
  { path: '/signin', component: signedOut(SignIn) },
  { path: '/register', component: signedOut(Register) },
  { path: '/forgot', component: Forgot },
  { path: '/reset', component: Reset },
  // Links mailed before the mail used CONTRACT §15's /reset still open.
  { path: '/reset-password', component: Reset },
  // The mailed verification link and an invitation's link: signed-out visitors sign in (or
  // register) first and come back with the link's query.
  { path: '/verify', component: signedIn(Verify) },
  { path: '/invite', component: signedIn(AcceptInvite) },
  { path: '/trees', component: signedIn(Trees) },
  { path: '/upcoming', component: signedIn(Upcoming) },
  { path: '/trees/:id', component: signedIn(TreePage) },
  { path: '/trees/:id/sharing', component: signedIn(Sharing) },
  { path: '/agents', component: signedIn(Agents) },
  { path: '/changes/:id', component: signedIn(Change) },
  { path: '/account', component: signedIn(Account) },
  { path: '/billing', component: signedIn(Billing) },
  { path: '/*', component: NotFound },
];
