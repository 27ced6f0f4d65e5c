import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { User } from './api/types';
import type { Language } from './i18n';

export interface SessionState {
  user: User | null;
  /** True after a request found the session gone: the page stays, a sign-in dialog opens over it. */
  expired: boolean;
  setUser(user: User | null): void;
  language: Language;
  changeLanguage(language: Language): Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (state === null) throw new Error('useSession outside <App>');
  return state;
}

/** The signed-in user; only for pages behind <SignedIn>. */
export function useUser(): User {
  const { user } = useSession();
  if (user === null) throw new Error('useUser on a signed-out page');
  return user;
}
