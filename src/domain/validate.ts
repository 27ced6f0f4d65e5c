import { invalid } from './errors.js';
import { checkNoNul, EMAIL_MAX, NAME_PATTERN, NOT_BLANK_MESSAGE, TIMEZONE_MAX } from './fields.js';
import { currentZoneName } from './zone-names.js';

/** Field rules the domain enforces for every door (REST validates the same bounds earlier through its schema). */
export function checkLength(path: string, value: string, min: number, max: number): void {
  const length = [...value].length;
  if (length < min || length > max) throw invalid(path, `must be ${min} to ${max} characters`);
  checkNoNul(path, value);
}

const NOT_BLANK = new RegExp(NAME_PATTERN, 'u');

/** A name, title or post body: 1 to `max` characters, at least one not white space (CONTRACT §18), kept as sent. */
export function checkName(path: string, value: string, max: number): void {
  checkLength(path, value, 1, max);
  if (!NOT_BLANK.test(value)) throw invalid(path, NOT_BLANK_MESSAGE);
}

export function checkEnum<T extends string>(path: string, value: string, allowed: readonly T[]): asserts value is T {
  if (!(allowed as readonly string[]).includes(value)) throw invalid(path, `must be one of ${allowed.join(', ')}`);
}

const EMAIL = /^[^\s@"<>(),;:\\[\]]+@[^\s@"<>(),;:\\[\]]+\.[^\s@"<>(),;:\\[\]]+$/;

export function normalizeEmail(path: string, value: string): string {
  const email = value.trim().toLowerCase();
  if (email.length > EMAIL_MAX || !EMAIL.test(email)) throw invalid(path, 'must be an email address');
  checkNoNul(path, email);
  return email;
}

const ZONE_NAME = /^(?:[A-Za-z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+)*$/;

/** An IANA time zone name, returned in its canonical spelling (`europe/berlin` -> `Europe/Berlin`). */
export function canonicalTimeZone(path: string, value: string): string {
  if (!ZONE_NAME.test(value) || value.length > TIMEZONE_MAX)
    throw invalid(path, 'must be an IANA time zone name such as Europe/Berlin');
  try {
    // Stored by its current IANA name: ICU resolves Europe/Kyiv (and Europe/Kiev) to Europe/Kiev.
    return currentZoneName(new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone);
  } catch {
    throw invalid(path, 'must be an IANA time zone name such as Europe/Berlin');
  }
}
