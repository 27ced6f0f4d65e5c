import { i18n } from './index';

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${i18n.language}|${timeZone}|${withTime}`;
  let f = cache.get(key);
  if (f === undefined) {
    f = new Intl.DateTimeFormat(i18n.language, {
      dateStyle: 'medium',
      ...(withTime ? { timeStyle: 'short' } : {}),
      timeZone,
    });
    cache.set(key, f);
  }
  return f;
}

/** A UTC timestamp from the API as the person's own clock shows it. */
export function formatDateTime(iso: string | null, timeZone: string): string {
  if (iso === null) return '—';
  return formatter(timeZone, true).format(new Date(iso));
}

/** A deadline: a plain date stays that calendar day everywhere; a timestamp is shown in the zone. */
export function formatDeadline(deadline: string, timeZone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(deadline)) return formatter('UTC', false).format(new Date(`${deadline}T00:00:00Z`));
  return formatDateTime(deadline, timeZone);
}

/** A whole number as the language writes it: 5,000 or 5 000. */
export function formatCount(n: number): string {
  return new Intl.NumberFormat(i18n.language).format(n);
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(i18n.language, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}
