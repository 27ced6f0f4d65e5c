import { useMemo } from 'preact/hooks';
import { i18n } from './index';
import { useSession } from '../session';

/** `t` bound to the session's language: a language switch re-renders every component that uses it. */
export function useT() {
  const { language } = useSession();
  return useMemo(() => i18n.getFixedT(language), [language]);
}
