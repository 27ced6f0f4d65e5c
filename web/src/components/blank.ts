import { NAME_PATTERN } from '../api/bounds';
import { t } from '../i18n';

const NOT_BLANK = new RegExp(NAME_PATTERN, 'u');

/**
 * Names, titles, comments and messages must hold a character that is not white space (CONTRACT
 * §18), by the server's own pattern. Throws the page's words for the field, which the form's
 * useSubmit shows like any failure; nothing is sent.
 */
export function requireNotBlank(value: string, field: string): void {
  if (!NOT_BLANK.test(value)) throw new Error(t('errors.blank', { field }));
}
