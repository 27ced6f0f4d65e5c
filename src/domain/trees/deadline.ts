import { invalid } from '../errors.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;
const MAX_FRACTION_DIGITS = 6;

function realDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * A deadline is a calendar date (kept as given) or a zoned timestamp, returned in UTC with the
 * fractional digits it was given (1 to 6; none is fine too). Date arithmetic happens on whole
 * seconds so microseconds are never rounded through a JS Date.
 */
export function normalizeDeadline(value: string | null, path = '/deadline'): string | null {
  if (value === null) return null;
  const date = DATE.exec(value);
  if (date !== null) {
    if (!realDate(Number(date[1]), Number(date[2]), Number(date[3]))) throw invalid(path, 'is not a calendar date');
    return value;
  }
  const ts = TIMESTAMP.exec(value);
  if (ts === null) throw invalid(path, 'must be YYYY-MM-DD or an ISO 8601 timestamp with a time zone');
  const [, y, mo, d, h, mi, s, fraction, zone] = ts;
  if (fraction !== undefined && fraction.length > MAX_FRACTION_DIGITS)
    throw invalid(path, `accepts 1 to ${MAX_FRACTION_DIGITS} fractional digits`);
  if (!realDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    throw invalid(path, 'is not a valid time');
  let offsetMinutes = 0;
  if (zone!.toUpperCase() !== 'Z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const [oh, om] = zone!.slice(1).split(':').map(Number);
    if (oh! > 23 || om! > 59) throw invalid(path, 'has an invalid zone offset');
    offsetMinutes = sign * (oh! * 60 + om!);
  }
  const utc = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMinutes * 60_000,
  );
  if (Number.isNaN(utc.getTime())) throw invalid(path, 'is not a valid time');
  const whole = utc.toISOString().slice(0, 19);
  return `${whole}${fraction === undefined ? '' : `.${fraction}`}Z`;
}
