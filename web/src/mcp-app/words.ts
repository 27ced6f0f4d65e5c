// The App's words: the web app's own dictionaries, in the host's language when we speak it.
import { en } from '../i18n/en';
import { ru } from '../i18n/ru';
import type { Language } from '../i18n';

export type Words = typeof en;

/** Russian for a host locale of Russian (`ru`, `ru-RU`), English for any other or none. */
export function languageOf(locale: string | undefined): Language {
  return locale?.toLowerCase().split('-')[0] === 'ru' ? 'ru' : 'en';
}

export function wordsOf(language: Language): Words {
  return language === 'ru' ? ru : en;
}

/** A message with its `{{name}}` places filled (the dictionaries' i18next syntax, without i18next). */
export function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{\{(\w+)\}\}/g, (place, name: string) =>
    values[name] !== undefined ? String(values[name]) : place,
  );
}
