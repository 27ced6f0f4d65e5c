import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, Route, Router } from 'preact-iso';
import type { User } from './api/types';
import { setUnauthorizedHandler } from './api/client';
import { setLanguage, type Language, i18n } from './i18n';
import { SessionContext, type SessionState } from './session';
import { Shell } from './components/Shell';
import { routes } from './routes';

export function App({ initialUser }: { initialUser: User | null }) {
  const [user, setUserState] = useState<User | null>(initialUser);
  const [expired, setExpired] = useState(false);
  const [language, setLanguageState] = useState<Language>(i18n.language as Language);

  const changeLanguage = useCallback(async (next: Language) => {
    await setLanguage(next);
    setLanguageState(next);
  }, []);

  const setUser = useCallback(
    (next: User | null) => {
      setUserState(next);
      setExpired(false);
      if (next !== null && next.language !== i18n.language) void changeLanguage(next.language);
    },
    [changeLanguage],
  );

  // A 401 on a signed-in page: keep the page (and what was typed), ask to sign in again over it.
  useEffect(() => setUnauthorizedHandler(() => setExpired(true)), []);

  const session = useMemo<SessionState>(
    () => ({ user, expired, setUser, language, changeLanguage }),
    [user, expired, setUser, language, changeLanguage],
  );

  return (
    <SessionContext.Provider value={session}>
      <LocationProvider>
        <ErrorBoundary>
          <Shell>
            <Router>
              {routes.map((r) => (
                <Route key={r.path} path={r.path} component={r.component} />
              ))}
            </Router>
          </Shell>
        </ErrorBoundary>
      </LocationProvider>
    </SessionContext.Provider>
  );
}
