import i18next from 'i18next';
import { en } from './en';

export type Language = 'en' | 'ru';
export const LANGUAGES: readonly Language[] = ['en', 'ru'];

/** Keys are checked at compile time: a typo in t('…') is a type error, not a blank label. */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
    returnNull: false;
  }
}

export const i18n = i18next.createInstance();

/** English ships in the main bundle; Russian is fetched on first use. */
export async function initI18n(language: Language): Promise<void> {
  await i18n.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    // Preact escapes every text node; escaping here too would show &lt; to people.
    interpolation: { escapeValue: false },
  });
  await setLanguage(language);
}

export async function setLanguage(language: Language): Promise<void> {
  if (language === 'ru' && !i18n.hasResourceBundle('ru', 'translation')) {
    const { ru } = await import('./ru');
    i18n.addResourceBundle('ru', 'translation', ru);
  }
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/** A signed-out visitor gets the browser's language when we speak it, else English. */
export function browserLanguage(): Language {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'ru' || base === 'en') return base;
  }
  return 'en';
}

export const t = i18n.t.bind(i18n);
