import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSession } from '../session';
import { useT } from '../i18n/use-t';
import { SignOutButton } from './SignOutButton';
import { SessionExpiredDialog } from './SessionExpiredDialog';
import { Logo } from './Logo';
import { VerifyBanner } from './VerifyBanner';

/** The frame of every page: the brand, the navigation (signed in) and the main landmark. */
export function Shell({ children }: { children: ComponentChildren }) {
  const { user, expired } = useSession();
  const t = useT();
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header class="topbar">
        <a class="brand" href={user !== null ? '/trees' : '/'}>
          <Logo />
          <span>Task Tree</span>
        </a>
        {user !== null ? (
          <>
            <nav class="mainnav" aria-label={t('nav.label')}>
              <NavLink href="/trees">{t('nav.trees')}</NavLink>
              <NavLink href="/agents">{t('nav.agents')}</NavLink>
              <NavLink href="/account">{t('nav.account')}</NavLink>
              <NavLink href="/billing">{t('nav.billing')}</NavLink>
            </nav>
            <div class="who">
              <span class="who-name">{user.name !== '' ? user.name : user.email}</span>
              <SignOutButton />
            </div>
          </>
        ) : (
          <nav class="mainnav" aria-label={t('nav.label')}>
            <NavLink href="/about">{t('nav.about')}</NavLink>
            <NavLink href="/signin">{t('auth.signIn')}</NavLink>
            <NavLink href="/register">{t('auth.createAccount')}</NavLink>
          </nav>
        )}
      </header>
      {user !== null && !user.email_verified ? <VerifyBanner user={user} /> : null}
      <main id="main" class="main">
        {children}
      </main>
      {expired && user !== null ? <SessionExpiredDialog /> : null}
    </div>
  );
}

function NavLink({ href, children }: { href: string; children: ComponentChildren }) {
  const { path } = useLocation();
  const current = path === href || path.startsWith(`${href}/`);
  return (
    <a href={href} class={current ? 'navlink current' : 'navlink'} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
