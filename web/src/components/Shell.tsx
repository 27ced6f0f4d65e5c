import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session';
import { useT } from '../i18n/use-t';
import { SignOutButton } from './SignOutButton';
import { SessionExpiredDialog } from './SessionExpiredDialog';
import { Logo } from './Logo';
import { VerifyBanner } from './VerifyBanner';

/**
 * The frame of every page: the brand, the navigation and the main landmark. On a narrow screen
 * the navigation folds behind a `Menu` button (CONTRACT §18); choosing a link closes it.
 */
export function Shell({ children }: { children: ComponentChildren }) {
  const { user, expired } = useSession();
  const t = useT();
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // Another page, whichever way it was reached (a link, Back), starts with the menu folded.
  useEffect(() => setMenuOpen(false), [path]);
  const menuButton = useRef<HTMLButtonElement>(null);
  const close = () => setMenuOpen(false);
  // Escape folds an open menu and leaves focus on its button.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header class="topbar" onKeyDown={onKeyDown}>
        <a class="brand" href={user !== null ? '/trees' : '/'}>
          <Logo />
          <span>Task Tree</span>
        </a>
        <button
          ref={menuButton}
          type="button"
          class="btn ghost menu-button"
          aria-expanded={menuOpen}
          aria-controls="mainnav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M2 4h12M2 8h12M2 12h12" />
          </svg>
          {t('nav.menu')}
        </button>
        <nav id="mainnav" class={menuOpen ? 'mainnav open' : 'mainnav'} aria-label={t('nav.label')}>
          {user !== null ? (
            <>
              <NavLink href="/trees" onChoose={close}>
                {t('nav.trees')}
              </NavLink>
              <NavLink href="/upcoming" onChoose={close}>
                {t('nav.upcoming')}
              </NavLink>
              <NavLink href="/agents" onChoose={close}>
                {t('nav.agents')}
              </NavLink>
              <NavLink href="/account" onChoose={close}>
                {t('nav.account')}
              </NavLink>
              <NavLink href="/billing" onChoose={close}>
                {t('nav.billing')}
              </NavLink>
            </>
          ) : (
            <>
              <NavLink href="/about" onChoose={close}>
                {t('nav.about')}
              </NavLink>
              <NavLink href="/signin" onChoose={close}>
                {t('auth.signIn')}
              </NavLink>
              <NavLink href="/register" onChoose={close}>
                {t('auth.createAccount')}
              </NavLink>
            </>
          )}
        </nav>
        {user !== null ? (
          <div class="who">
            <span class="who-name">{user.name !== '' ? user.name : user.email}</span>
            <SignOutButton />
          </div>
        ) : null}
      </header>
      {user !== null && !user.email_verified ? <VerifyBanner user={user} /> : null}
      <main id="main" class="main">
        {children}
      </main>
      {expired && user !== null ? <SessionExpiredDialog /> : null}
    </div>
  );
}

function NavLink({ href, children, onChoose }: { href: string; children: ComponentChildren; onChoose(): void }) {
  const { path } = useLocation();
  const current = path === href || path.startsWith(`${href}/`);
  return (
    <a
      href={href}
      class={current ? 'navlink current' : 'navlink'}
      aria-current={current ? 'page' : undefined}
      onClick={onChoose}
    >
      {children}
    </a>
  );
}
